/* rules-kb, offline rulebook: the search box, the jump to a rule number and the
   pages menu of every page. Works from file:// with no server: the index is
   window.RULES_KB_INDEX, set by recherche-index.js (loaded just before this file;
   its shape is described in rules_kb/export/book_index.py, format 2). What a
   player's word names and which typing errors are forgiven come from that index,
   written at export time from the library's own data: nothing of the sort is
   written here. No network, no eval, no inline script. */
(function () {
  "use strict";

  /* The pages menu (a <details>, which works without this script): closed by a tap
     elsewhere, by Escape, or when the search box takes the focus. */
  var menu = document.querySelector("details.menu");
  if (menu) {
    document.addEventListener("click", function (event) {
      if (menu.open && !menu.contains(event.target)) menu.open = false;
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && menu.open) {
        menu.open = false;
        menu.querySelector("summary").focus();
      }
    });
  }

  var data = window.RULES_KB_INDEX;
  var form = document.querySelector("form.search");
  var input = form && form.querySelector("input");
  var list = document.getElementById("resultats");
  if (!data || data.format !== 2 || !form || !input || !list) return;
  form.hidden = false;
  var LIMIT = 30;
  var DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";
  var stop = new Set(data.stop), small = new Set(data.small);
  /* define's tolerance: no typo under typo[0] letters, typo[1] error(s) under typo[2], else typo[3]. */
  var typo = data.typo;
  var entries = null, named = null, lexicon = null;

  function fold(text) {
    return text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");
  }

  function words(text) {
    return fold(text).match(/[\p{L}\p{N}]+/gu) || [];
  }

  function singular(word) {
    return word.length > 3 && /[sx]$/.test(word) ? word.slice(0, -1) : word;
  }

  /* A name's or a player's form's key, as book_index.player_key makes it: small words out, singular. */
  function playerKey(folded) {
    return folded.filter(function (word) { return !small.has(word); }).map(singular).join(" ");
  }

  function significant(folded) {
    return folded.filter(function (term) { return !stop.has(term) && (term.length > 1 || /\d/.test(term)); });
  }

  function push(map, key, value) {
    if (!key) return;
    if (!map.has(key)) map.set(key, []);
    map.get(key).push(value);
  }

  function load() {
    if (entries) return entries;
    var width = data.width;
    named = new Map();
    entries = data.entries.map(function (row, position) {
      var ids = new Set();
      for (var i = 0; i < row[7].length; i += width) {
        var id = 0;
        for (var j = i; j < i + width; j++) id = id * DIGITS.length + DIGITS.indexOf(row[7].charAt(j));
        ids.add(id);
      }
      var anchor = row[5] || "r" + row[1].replace(/\./g, "-");
      var title = row[0] === "g" ? row[1] : row[2];
      var entry = {
        kind: row[0], label: row[1], title: row[2], edition: row[3],
        href: data.pages[row[4]] + "#" + anchor, first: row[6], ids: ids,
        name: words(title).join(" "), display: title
      };
      push(named, playerKey(words(title)), position);
      return entry;
    });
    /* key → [{label, positions}], the lexicon's rows of that form. */
    lexicon = new Map();
    data.lexicon.forEach(function (row) {
      var positions = row.slice(2);
      var label = row[1] || (positions.length ? entries[positions[0]].display : "");
      push(lexicon, row[0], {label: label, positions: positions});
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

  /* The entries holding every group's words (a group: the vocabulary's positions of a typed
     word, exact or prefix), best first; `phrase` (the words as typed) ranks a name said whole. */
  function byGroups(groups, phrase) {
    if (!groups.length) return [];
    var found = [];
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

  function byWords(folded) {
    var terms = significant(folded);
    return byGroups(terms.map(matches), terms.join(" "));
  }

  function inVocabulary(word) {
    return matches(word).exact.length > 0;
  }

  /* Typing errors between a and b (optimal string alignment: a transposition counts one),
     or more than `most` as soon as it is sure to be. */
  function distance(a, b, most) {
    if (Math.abs(a.length - b.length) > most) return most + 1;
    var before = null, previous = [], current, i, j;
    for (j = 0; j <= b.length; j++) previous.push(j);
    for (i = 1; i <= a.length; i++) {
      current = [i];
      var lowest = i;
      for (j = 1; j <= b.length; j++) {
        var value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a.charAt(i - 1) === b.charAt(j - 1) ? 0 : 1));
        if (i > 1 && j > 1 && a.charAt(i - 1) === b.charAt(j - 2) && a.charAt(i - 2) === b.charAt(j - 1)) {
          value = Math.min(value, before[j - 2] + 1);
        }
        current.push(value);
        if (value < lowest) lowest = value;
      }
      if (lowest > most) return most + 1;
      before = previous;
      previous = current;
    }
    return previous[b.length];
  }

  /* The typing errors a word or name of this length may hold (0: none). */
  function tolerated(text) {
    return text.length < typo[0] ? 0 : text.length < typo[2] ? typo[1] : typo[3];
  }

  /* The candidates nearest `text` within its tolerance (all those at the least distance). */
  function nearest(text, candidates) {
    var most = tolerated(text), best = most + 1, found = [];
    if (!most) return [];
    candidates.forEach(function (candidate) {
      var value = distance(text, candidate, Math.min(most, best));
      if (value < best) { best = value; found = [candidate]; }
      else if (value === best && value <= most) found.push(candidate);
    });
    return best <= most ? found : [];
  }

  /* Glossary entries first, then the rules of the default edition, then the others. */
  function ranked(a, b) {
    return (a.kind !== "g") - (b.kind !== "g") || (a.edition !== data.edition) - (b.edition !== data.edition);
  }

  function unique(items) {
    var seen = new Set();
    return items.filter(function (item) { return !seen.has(item) && seen.add(item); });
  }

  /* What a lexicon's rows name: their entries, and the words of each label to search next. */
  function namedBy(rows, first, then) {
    rows.forEach(function (row) {
      row.positions.forEach(function (position) { first.push(entries[position]); });
      then.push(words(row.label));
    });
    return unique(rows.map(function (row) { return row.label; })).join(", ");
  }

  /* A longer query's players' words (the lexicon's forms holding a word the documents do not
     use) read as what they name; null when there are none. */
  function rewrite(typed, folded, notes) {
    var out = [], changed = false, i = 0;
    while (i < folded.length) {
      var taken = 0;
      for (var j = Math.min(folded.length, i + 6); j > i && !small.has(folded[i]); j--) {
        if (small.has(folded[j - 1])) continue;
        var part = folded.slice(i, j), rows = lexicon.get(playerKey(part));
        if (rows && significant(part).some(function (word) { return !inVocabulary(word); })) {
          notes.push(typed.slice(i, j).join(" ") + " → " + rows[0].label);
          out = out.concat(words(rows[0].label));
          taken = j - i;
          break;
        }
      }
      if (taken) { changed = true; i += taken; } else { out.push(folded[i]); i += 1; }
    }
    return changed ? out : null;
  }

  /* The query read as define reads it: a player's word (the lexicon), the words themselves,
     and only when these find nothing, a typo of a name, of a player's word, or of words. */
  function search(query) {
    load();
    var folded = words(query), key = playerKey(folded), notes = [], first = [], then = [];
    var rows = !named.has(key) && lexicon.get(key);
    if (rows) {
      notes.push(query.trim() + " → " + namedBy(rows, first, then));
    } else if (significant(folded).length > 1) {
      var typed = query.match(/[\p{L}\p{N}]+/gu) || [];
      var rewritten = typed.length === folded.length ? rewrite(typed, folded, notes) : null;
      if (rewritten) then.push(rewritten);
    }
    var lists = [first].concat(then.map(byWords), [byWords(folded)]);
    var results = unique([].concat.apply([], lists));
    if (!results.length) results = typos(query, folded, key, notes);
    return {results: results, notes: notes};
  }

  function typos(query, folded, key, notes) {
    var first = [], then = [];
    var keys = nearest(key, Array.from(named.keys()).concat(Array.from(lexicon.keys())));
    if (keys.length) {
      var labels = [];
      keys.forEach(function (name) {
        (named.get(name) || []).forEach(function (position) {
          first.push(entries[position]);
          labels.push(entries[position].display);
          then.push(words(entries[position].display));
        });
        if (lexicon.has(name)) labels.push(namedBy(lexicon.get(name), first, then));
      });
      notes.push(query.trim() + " → " + unique(labels).join(", ") + " (faute de frappe\u00a0?)");
      first.sort(ranked);
      return unique(first.concat([].concat.apply([], then.map(byWords))));
    }
    /* Each word the documents do not have, read as the nearest word they have. */
    var groups = [], phrase = [], corrected = [];
    var terms = significant(folded);
    for (var t = 0; t < terms.length; t++) {
      var found = matches(terms[t]);
      if (!found.exact.length && !found.prefix.length) {
        var near = nearest(terms[t], data.words);
        if (!near.length) return [];
        found = {exact: near.map(function (word) { return data.words.indexOf(word); }), prefix: []};
        corrected.push(terms[t] + " → " + near.join(", "));
        phrase.push(near[0]);
      } else {
        phrase.push(terms[t]);
      }
      groups.push(found);
    }
    if (!corrected.length) return [];
    var results = byGroups(groups, phrase.join(" "));
    if (results.length) notes.push(corrected.join(" ; ") + " (faute de frappe\u00a0?)");
    return results;
  }

  function span(css, text) {
    var node = document.createElement("span");
    node.className = css;
    node.textContent = text;
    return node;
  }

  function note(css, text) {
    var item = document.createElement("li");
    item.className = css;
    item.textContent = text;
    list.appendChild(item);
  }

  function show(results, message, notes) {
    list.textContent = "";
    if (notes && notes.length) note("understood", "Compris\u00a0: " + notes.join(" ; "));
    if (message) note("none", message);
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
    var found = search(query);
    show(found.results, found.results.length ? "" : "Aucun résultat pour «\u00a0" + query + "\u00a0».", found.notes);
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
  input.addEventListener("focus", function () { if (menu) menu.open = false; });
  input.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { input.value = ""; show([]); }
  });
  list.addEventListener("click", function (event) {
    if (event.target.closest("a")) close();
  });
})();
