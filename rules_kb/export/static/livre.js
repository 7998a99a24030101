/* rules-kb, offline rulebook: the search box and jump-to-number of every page.
   Works from file:// with no server: the index is window.RULES_KB_INDEX, set by
   recherche-index.js (loaded just before this file; its shape is described in
   rules_kb/export/book_index.py). No network, no eval, no inline script. */
(function () {
  "use strict";
  var data = window.RULES_KB_INDEX;
  var form = document.querySelector("form.search");
  var input = form && form.querySelector("input");
  var list = document.getElementById("resultats");
  if (!data || data.format !== 1 || !form || !input || !list) return;
  form.hidden = false;
  var LIMIT = 30;
  var DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";
  var stop = new Set(data.stop);
  var entries = null;

  function fold(text) {
    return text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");
  }

  function words(text) {
    return fold(text).match(/[\p{L}\p{N}]+/gu) || [];
  }

  function load() {
    if (entries) return entries;
    var width = data.width;
    entries = data.entries.map(function (row) {
      var ids = new Set();
      for (var i = 0; i < row[7].length; i += width) {
        var id = 0;
        for (var j = i; j < i + width; j++) id = id * DIGITS.length + DIGITS.indexOf(row[7].charAt(j));
        ids.add(id);
      }
      var anchor = row[5] || "r" + row[1].replace(/\./g, "-");
      return {
        kind: row[0], label: row[1], title: row[2], edition: row[3],
        href: data.pages[row[4]] + "#" + anchor, first: row[6], ids: ids,
        name: words(row[0] === "g" ? row[1] : row[2]).join(" ")
      };
    });
    return entries;
  }

  /* "420.5c", "420,5 c", "règle 420.5c" → "420.5c"; anything else → null. */
  function ruleNumber(query) {
    var text = fold(query).trim().replace(/^(regle|r)\s*/, "");
    var found = /^(\d{1,3})(?:[.,]\s*(\d{1,3})\s*([a-z])?)?\.?$/.exec(text);
    if (!found) return null;
    return found[1] + (found[2] ? "." + found[2] + (found[3] || "") : "");
  }

  function byNumber(number) {
    var exact = [], inside = [];
    load().forEach(function (entry) {
      if (entry.kind !== "r") return;
      if (entry.label === number) exact.push(entry);
      else if (entry.label.lastIndexOf(number, 0) === 0 && /^[.a-z]/.test(entry.label.charAt(number.length))) inside.push(entry);
    });
    exact.sort(function (a, b) { return (a.edition !== data.edition) - (b.edition !== data.edition); });
    return exact.concat(inside);
  }

  /* The vocabulary's positions of the words that are `term` (exact) or begin with it (prefix). */
  function matches(term) {
    var vocabulary = data.words, low = 0, high = vocabulary.length;
    while (low < high) {
      var middle = (low + high) >> 1;
      if (vocabulary[middle] < term) low = middle + 1; else high = middle;
    }
    var exact = [], prefix = [];
    for (var i = low; i < vocabulary.length && vocabulary[i].lastIndexOf(term, 0) === 0; i++) {
      (vocabulary[i] === term ? exact : prefix).push(i);
    }
    return {exact: exact, prefix: prefix};
  }

  function byWords(query) {
    var terms = words(query).filter(function (term) {
      return !stop.has(term) && (term.length > 1 || /\d/.test(term));
    });
    if (!terms.length) return [];
    var groups = terms.map(matches), phrase = terms.join(" "), found = [];
    load().forEach(function (entry, position) {
      var score = 0;
      for (var g = 0; g < groups.length; g++) {
        var best = groups[g].exact.some(function (id) { return entry.ids.has(id); }) ? 3
          : groups[g].prefix.some(function (id) { return entry.ids.has(id); }) ? 1 : 0;
        if (!best) return;  /* every word of the query must be there */
        score += best;
      }
      if (entry.name === phrase) score += entry.kind === "g" ? 101 : 100;
      else if ((" " + entry.name + " ").indexOf(" " + phrase + " ") >= 0) score += 30;
      else if (entry.name && entry.name.lastIndexOf(phrase, 0) === 0) score += 20;
      if (entry.kind === "r" && entry.edition !== data.edition) score -= 0.5;
      found.push([score, position, entry]);
    });
    found.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
    return found.map(function (item) { return item[2]; });
  }

  function span(css, text) {
    var node = document.createElement("span");
    node.className = css;
    node.textContent = text;
    return node;
  }

  function show(results, message) {
    list.textContent = "";
    if (message) {
      var note = document.createElement("li");
      note.className = "none";
      note.textContent = message;
      list.appendChild(note);
    }
    results.slice(0, LIMIT).forEach(function (entry) {
      var item = document.createElement("li"), link = document.createElement("a");
      link.href = entry.href;
      var label = entry.kind === "r" && entry.edition !== data.edition ? entry.label + " (" + entry.edition + ")" : entry.label;
      link.appendChild(span("n", label));
      if (entry.kind === "g") link.appendChild(span("kind", " glossaire"));
      if (entry.title) link.appendChild(document.createTextNode(" " + entry.title));
      if (entry.first) link.appendChild(span("first", entry.first));
      item.appendChild(link);
      list.appendChild(item);
    });
    list.hidden = !list.firstChild;
  }

  function update() {
    var query = input.value.trim();
    if (!query) { show([]); return; }
    var number = ruleNumber(query);
    if (number) {
      var rules = byNumber(number);
      show(rules, rules.length ? "" : "Pas de règle " + number + " dans ce livre.");
      return;
    }
    var results = byWords(query);
    show(results, results.length ? "" : "Aucun résultat pour «\u00a0" + query + "\u00a0».");
  }

  function close() {
    list.hidden = true;
    input.blur();
  }

  /* Enter (a phone's "Go") opens the first result: a number typed lands on its rule. */
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    update();
    var first = list.querySelector("a");
    if (!first) return;
    close();
    if (first.href === window.location.href) {
      var target = document.getElementById(first.hash.slice(1));
      if (target) target.scrollIntoView();
    } else {
      window.location.assign(first.href);
    }
  });
  input.addEventListener("input", update);
  input.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { input.value = ""; show([]); }
  });
  list.addEventListener("click", function (event) {
    if (event.target.closest("a")) close();
  });
})();
