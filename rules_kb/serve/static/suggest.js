// rules-kb serve: suggestions as you type, from /api/suggest. Everything works without it.
"use strict";
(function () {
  var input = document.getElementById("q");
  var list = document.getElementById("suggestions");
  if (!input || !list || !window.fetch) return;
  var timer = null, asked = "";
  function href(hit) {
    var q = encodeURIComponent(hit.title || hit.id);
    if (hit.kind === "rule") return "/regle/" + encodeURIComponent(hit.id) + (hit.edition ? "?edition=" + encodeURIComponent(hit.edition) : "");
    if (hit.kind === "glossary") return "/definition?terme=" + q;
    if (hit.kind === "card" || hit.kind === "ruling") return "/recherche?q=" + q + "&type=carte&type=d%C3%A9cision";
    return "/recherche?q=" + q;
  }
  var kinds = {rule: "règle", glossary: "glossaire", card: "carte", ruling: "décision", "faq-section": "FAQ", course: "cours"};
  function show(hits) {
    list.textContent = "";
    hits.forEach(function (hit) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = href(hit);
      link.setAttribute("role", "option");
      link.textContent = hit.kind === "rule" ? hit.id + " " + (hit.title || hit.snippet.slice(0, 60)) : (hit.title || hit.id);
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = kinds[hit.kind] || hit.kind;
      link.appendChild(kind);
      item.appendChild(link);
      list.appendChild(item);
    });
    list.hidden = hits.length === 0;
  }
  function ask() {
    var text = input.value.trim();
    if (text === asked) return;
    asked = text;
    if (text.length < 2 || text.length > 2000) { show([]); return; }
    fetch("/api/suggest?limit=6&q=" + encodeURIComponent(text), {headers: {Accept: "application/json"}})
      .then(function (response) { return response.ok ? response.json() : {hits: []}; })
      .then(function (data) { if (input.value.trim() === text) show(data.hits || []); })
      .catch(function () { show([]); });
  }
  input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(ask, 150); });
  input.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { list.hidden = true; }
    if (event.key === "ArrowDown" && !list.hidden && list.firstChild) { event.preventDefault(); list.firstChild.firstChild.focus(); }
  });
  list.addEventListener("keydown", function (event) {
    var item = document.activeElement && document.activeElement.parentNode;
    if (event.key === "ArrowDown" && item && item.nextSibling) { event.preventDefault(); item.nextSibling.firstChild.focus(); }
    if (event.key === "ArrowUp" && item) { event.preventDefault(); (item.previousSibling ? item.previousSibling.firstChild : input).focus(); }
    if (event.key === "Escape") { list.hidden = true; input.focus(); }
  });
  document.addEventListener("click", function (event) { if (!list.contains(event.target) && event.target !== input) list.hidden = true; });
})();
