// rules-kb serve, /verifier only: adds rows without a round trip (from the page's <template>s), removes an effect in
// place, keeps the lists of players and permanents in step with what is typed, and copies the TOML. Everything
// works without it: the buttons then send the form to the server, which does the same.
"use strict";
(function () {
  var form = document.getElementById("plateau");
  if (!form || !document.querySelector || !("content" in document.createElement("template"))) return;
  var all = function (root, selector) { return Array.prototype.slice.call(root.querySelectorAll(selector)); };

  function rows(section) { return all(form, '.row[data-section="' + section + '"]'); }

  function nextTimestamp() {
    var latest = 0;
    all(form, "input[data-timestamp]").forEach(function (input) {
      var value = parseInt(input.value, 10);
      if (!isNaN(value) && value > latest) latest = value;
    });
    return latest + 1;
  }

  function nextRef(prefix) {
    var refs = all(form, "input[data-ref]"), taken = {}, number = refs.length + 1;
    refs.forEach(function (input) { taken[input.value] = true; });
    while (taken[prefix + number]) number += 1;
    return prefix + number;
  }

  // A row's fields are named <section>-<n>-<field>: give the rows of a section the numbers 0, 1, 2… again.
  function renumber(section) {
    var word = {player: "Joueur", permanent: "Permanent", effect: "Effet"}[section];
    rows(section).forEach(function (row, index) {
      var old = row.getAttribute("data-index");
      var before = section + "-" + old, after = section + "-" + index;
      [row].concat(all(row, "*")).forEach(function (node) {
        ["id", "name", "for", "aria-describedby"].forEach(function (attribute) {
          var value = node.getAttribute(attribute);
          if (value && (value === before || value.indexOf(before + "-") === 0)) {
            node.setAttribute(attribute, after + value.slice(before.length));
          }
        });
        if (node.getAttribute("value") === "remove-" + before) node.setAttribute("value", "remove-" + after);
      });
      row.setAttribute("data-index", String(index));
      var title = row.querySelector(".row-title");
      if (title) title.textContent = word + " n°" + (index + 1);
      var remove = row.querySelector("button.remove");
      if (remove) remove.setAttribute("aria-label", "Retirer : " + word + " n°" + (index + 1));
    });
  }

  function players() {
    return rows("player").map(function (row) { return row.querySelector("input[data-name]").value.trim(); })
      .filter(function (name) { return name; });
  }

  // [ref, label, is a permanent row] for each permanent and each card of the catalogue put in play.
  function permanents() {
    var found = rows("permanent").map(function (row, index) {
      var name = row.querySelector("input[data-name]").value.trim();
      return [row.querySelector("input[data-ref]").value, name || "permanent n°" + (index + 1), true];
    });
    rows("effect").forEach(function (row) {
      var kind = row.querySelector("select.kind"), source = row.querySelector(".p-source select");
      var option = kind && kind.options[kind.selectedIndex];
      if (option && option.getAttribute("data-card") && source && !source.value) {
        found.push([row.querySelector("input[data-ref]").value, option.getAttribute("data-card"), false]);
      }
    });
    return found;
  }

  function fill(holder, choices) {
    var select = holder.tagName === "SELECT" ? holder : holder.parentNode;
    var value = select.value, seen = false;
    while (holder.firstChild) holder.removeChild(holder.firstChild);
    choices.forEach(function (choice) {
      var option = document.createElement("option");
      option.value = choice[0];
      option.textContent = choice[1];
      if (choice[0] === value) { option.selected = true; seen = true; }
      holder.appendChild(option);
    });
    if (!seen && value && all(select, "option").every(function (o) { return o.value !== value; })) {
      var kept = document.createElement("option");
      kept.value = value;
      kept.textContent = value + " (n'est plus sur le plateau)";
      kept.selected = true;
      holder.appendChild(kept);
    }
  }

  // The lists of players and permanents, in step with the rows (names typed, rows added or removed).
  function refresh() {
    var names = players(), found = permanents();
    all(form, "[data-list]").forEach(function (holder) {
      var list = holder.getAttribute("data-list");
      var row = holder.closest(".row");
      var own = row && row.querySelector("input[data-ref]") ? row.querySelector("input[data-ref]").value : "";
      var others = found.filter(function (item) { return item[0] !== own; });
      if (list === "players") fill(holder, names.map(function (name) { return [name, name]; }));
      if (list === "attach-players") fill(holder, names.map(function (name) { return ["@" + name, name]; }));
      if (list === "permanents" || list === "targets") fill(holder, others);
      if (list === "sources") fill(holder, others.filter(function (item) { return item[2]; }));
    });
  }

  function add(section) {
    var template = document.getElementById("modele-" + section);
    var holder = form.querySelector('[data-rows="' + section + '"]');
    if (!template || !holder) return false;
    var index = rows(section).length;
    var box = document.createElement("div");
    box.innerHTML = template.innerHTML.split("__n__").join(String(index)).split("__m__").join(String(index + 1));
    var row = box.firstElementChild;
    var stamp = row.querySelector("input[data-timestamp]");
    if (stamp) stamp.value = String(nextTimestamp());
    var ref = row.querySelector("input[data-ref]");
    if (ref) ref.value = nextRef(section === "permanent" ? "p" : "e");
    if (section === "player") {
      var taken = players();
      var names = (template.getAttribute("data-names") || "").split("|").filter(function (name) {
        return name && taken.indexOf(name) < 0;
      });
      row.querySelector("input[data-name]").value = names.length ? names[0] : "Joueur " + (index + 1);
    }
    holder.appendChild(row);
    refresh();
    var first = row.querySelector("input:not([type=hidden]), select");
    if (first) first.focus();
    return true;
  }

  form.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button") : null;
    if (!button) return;
    var section = button.getAttribute("data-add");
    if (section && add(section)) { event.preventDefault(); return; }
    // An effect goes in place; a player or a permanent goes through the server, which updates what names it.
    var row = button.closest(".row.effect");
    if (button.classList.contains("remove") && row && !row.querySelector("option[data-card]:checked")) {
      event.preventDefault();
      row.parentNode.removeChild(row);
      renumber("effect");
      refresh();
    }
  });
  form.addEventListener("input", function (event) {
    if (event.target.hasAttribute && event.target.hasAttribute("data-name")) refresh();
  });
  form.addEventListener("change", function (event) {
    if (event.target.tagName === "SELECT") refresh();
  });

  all(document, "button[data-copy]").forEach(function (button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = source.textContent, done = function () { button.textContent = "Copié !"; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () {});
        return;
      }
      var range = document.createRange();
      range.selectNodeContents(source);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      try { if (document.execCommand("copy")) done(); } catch (error) { /* selected: the user copies it */ }
    });
  });
})();
