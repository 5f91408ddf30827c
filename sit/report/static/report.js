
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("sit-data").textContent);
  var SENTS = data.sentences, PAGE = 100;
  var SRC = document.body.getAttribute("data-src-lang") || "", TGT = document.body.getAttribute("data-tgt-lang") || "";
  var CATS = data.categories;
  var byId = Object.create(null), sentById = Object.create(null);
  SENTS.forEach(function (s) {
    sentById[s.key] = s;
    s.issues.forEach(function (i) { byId[i.id] = i; i._s = s; });
  });
  // Marks are keyed on each finding's content (i.key), in a store named by the run's settings (its
  // signature's digest): re-running the same command finds them again.
  var STORE = "sit-labels:" + data.run_key;
  var byKey = Object.create(null);
  SENTS.forEach(function (s) { s.issues.forEach(function (i) { byKey[i.key] = i; }); });
  var marks = Object.create(null), storageOk = true;
  SENTS.forEach(function (s) { s.issues.forEach(function (i) { if (i.label) marks[i.key] = {label: i.label, category: i.category || null}; }); });
  try {
    var saved = JSON.parse(window.localStorage.getItem(STORE) || "{}");
    Object.keys(saved).forEach(function (k) { if (byKey[k]) marks[k] = saved[k]; });
  } catch (e) { storageOk = false; }
  var FLAGGED = data.flagged_sentences;

  var $ = function (id) { return document.getElementById(id); };
  var listEl = $("list"), moreBtn = $("b-more"), statusEl = $("status");
  var state = {min: 0, group: "", cluster: "", rel: "", q: "", label: "all", sort: "worst"};
  var visible = [], shown = 0, flat = [], cur = null;

  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }
  function fmt(x) { return x === null || x === undefined ? "-" : (Math.round(x * 1000) / 1000).toString(); }
  function labelOf(i) { var m = marks[i.key]; return m && m.label ? m.label : null; }

  // Text with highlighted spans (offsets are code points, as Python counts them).
  function marked(text, spans, cls, lang) {
    var dd = el("dd");
    dd.setAttribute("dir", "auto");
    if (lang) dd.setAttribute("lang", lang);
    var cps = Array.from(text || ""), pos = 0;
    (spans || []).slice().sort(function (a, b) { return a[0] - b[0]; }).forEach(function (sp) {
      var s = Math.max(sp[0], pos), e = Math.min(sp[1], cps.length);
      if (s >= e) return;
      if (s > pos) dd.appendChild(document.createTextNode(cps.slice(pos, s).join("")));
      dd.appendChild(el("mark", cls, cps.slice(s, e).join("")));
      pos = e;
    });
    if (pos < cps.length) dd.appendChild(document.createTextNode(cps.slice(pos).join("")));
    return dd;
  }

  function haystack(i) {
    if (i._h === undefined) i._h = [i.original, i.perturbed, i.original_translation, i.perturbed_translation,
      i.before, i.after].join("\n").toLowerCase();
    return i._h;
  }
  function passes(i) {
    if (state.group && i.group !== state.group) return false;
    if (state.cluster && i.cluster !== state.cluster) return false;
    if (state.min > 0 && !(i.distance >= state.min)) return false;
    if (state.rel && !i.relations.some(function (r) { return r[0] === state.rel; })) return false;
    if (state.q && haystack(i).indexOf(state.q) < 0) return false;
    if (state.label !== "all") {
      var l = labelOf(i);
      if (state.label === "unlabelled" ? l !== null : l !== state.label) return false;
    }
    return true;
  }

  function compute() {
    visible = [];
    SENTS.forEach(function (s) {
      var keep = s.issues.filter(passes);
      if (keep.length) visible.push({s: s, issues: keep});
    });
    if (state.sort === "issues") visible.sort(function (a, b) { return b.issues.length - a.issues.length || a.s.position - b.s.position; });
    else if (state.sort === "id") visible.sort(function (a, b) { return a.s.source_id - b.s.source_id || a.s.position - b.s.position; });
    flat = [];
    visible.forEach(function (v) { v.issues.forEach(function (i) { flat.push(i.id); }); });
  }

  function badge(s) {
    var n = s.issues.length, bugs = 0, done = 0;
    s.issues.forEach(function (i) { var l = labelOf(i); if (l) done++; if (l === "bug") bugs++; });
    if (bugs) return el("span", "badge bug", bugs + " bug" + (bugs > 1 ? "s" : ""));
    if (done === n) return el("span", "badge ok", "no bug");
    if (done) return el("span", "badge part", done + "/" + n + " marked");
    return null;
  }

  function sentRow(v) {
    var s = v.s, sec = el("section", "sent");
    sec.id = "s-" + s.key;
    sec.setAttribute("role", "listitem");
    sec.dataset.sid = s.source_id;
    sec.dataset.group = s.group;
    var head = el("button", "sent-head");
    head.type = "button";
    head.setAttribute("aria-expanded", "false");
    var pos = el("span", "pos", "source " + s.source_id);
    pos.title = "source sentence " + s.source_id + " (its line in the input)";
    head.appendChild(pos);
    if (data.groups.length > 1) { var gr = el("span", "group", s.group); gr.title = s.title; head.appendChild(gr); }
    var dist = el("span", "dist", "distance " + fmt(s.max_distance));
    dist.title = "the largest distance among this sentence's findings: how far the two translations are apart by this relation's measure; higher is worse";
    head.appendChild(dist);
    var n = v.issues.length;
    head.appendChild(el("span", "n", n + (n === s.issues.length ? "" : "/" + s.issues.length) + " finding" + (s.issues.length > 1 ? "s" : "")));
    var b = badge(s); if (b) head.appendChild(b);
    var pre = el("bdi", "preview", s.source); pre.setAttribute("dir", "auto"); if (SRC) pre.setAttribute("lang", SRC);
    head.appendChild(pre);
    head.addEventListener("click", function () { toggle(sec); });
    sec.appendChild(head);
    var body = el("div", "sent-body"); body.hidden = true;
    sec.appendChild(body);
    sec._v = v;
    return sec;
  }

  function triage(i) {
    var box = el("div", "triage"), m = marks[i.key] || {};
    var bug = el("button", "mark-bug", "bug (x)"), ok = el("button", "mark-ok", "not a bug (n)");
    bug.type = ok.type = "button";
    bug.setAttribute("aria-pressed", String(m.label === "bug"));
    ok.setAttribute("aria-pressed", String(m.label === "not_bug"));
    bug.addEventListener("click", function () { setMark(i.id, m.label === "bug" ? null : "bug"); });
    ok.addEventListener("click", function () { setMark(i.id, m.label === "not_bug" ? null : "not_bug"); });
    var sel = el("select", "cat");
    sel.setAttribute("aria-label", "error category");
    sel.appendChild(el("option", null, "error category…")).value = "";
    CATS.forEach(function (c, n) { var o = el("option", null, (n + 1) + " " + c[1]); o.value = c[0]; sel.appendChild(o); });
    sel.value = m.category || "";
    sel.addEventListener("change", function () { setMark(i.id, "bug", sel.value || null); });
    box.appendChild(bug); box.appendChild(ok); box.appendChild(sel);
    return box;
  }

  var SCORE_TIPS = {
    s_src: "s_src: chrF of the perturbed source against the original, 0-1 (1: the same text)",
    s_tgt: "s_tgt: chrF of the two translations, 0-1 (1: the same translation); TEAPOT counts a success when s_src / s_tgt > 1"
  };
  function issueCard(i) {
    var art = el("article", "issue");
    art.id = "i-" + i.id;
    art.dataset.id = i.id;
    art.tabIndex = -1;
    var l = labelOf(i);
    if (l === "bug") art.classList.add("is-bug"); else if (l === "not_bug") art.classList.add("is-ok");
    if (cur === i.id) art.classList.add("current");
    var head = el("div", "issue-head");
    var rank = el("span", "rank", "#" + i.rank);
    rank.title = "rank " + i.rank + " among this sentence's findings of " + i.group + " (id " + i.id + ")";
    head.appendChild(rank);
    var d = el("span", "d", "distance " + fmt(i.distance));
    d.title = "how far the two translations are apart by this relation's measure; higher is worse";
    head.appendChild(d);
    var swap = el("span", "swap");
    var del = el("del", null, i.before), ins = el("ins", null, i.after);
    del.setAttribute("dir", "auto"); ins.setAttribute("dir", "auto");
    swap.appendChild(del); swap.appendChild(document.createTextNode(" → ")); swap.appendChild(ins);
    head.appendChild(swap);
    Object.keys(i.scores).forEach(function (k) {
      var sc = el("span", "score", k + " " + fmt(i.scores[k]));
      sc.title = SCORE_TIPS[k] || (k + ", on a 0-1 scale");
      head.appendChild(sc);
    });
    art.appendChild(head);
    var dl = el("dl", "texts");
    var sides = i._s.sides;
    dl.appendChild(el("dt", null, sides[0]));
    dl.appendChild(marked(i.original, i.source_marks[0], "del", SRC));
    dl.appendChild(el("dt", null, sides[1]));
    dl.appendChild(marked(i.perturbed, i.source_marks[1], "ins", SRC));
    dl.appendChild(el("dt", null, "translation"));
    dl.appendChild(marked(i.original_translation, i.translation_marks[0], "del", TGT));
    dl.appendChild(el("dt", null, sides[1] + " translation"));
    dl.appendChild(marked(i.perturbed_translation, i.translation_marks[1], "ins", TGT));
    if (i.evidence && i.evidence.missing && i.evidence.missing.length) {
      dl.appendChild(el("dt", null, "not in the container's translation"));
      dl.appendChild(el("dd", "missing", i.evidence.missing.join(", ")));
    }
    art.appendChild(dl);
    if (i.relations.length) {
      var ul = el("ul", "rels");
      ul.setAttribute("aria-label", "relation counts: original → perturbed translation");
      i.relations.forEach(function (r) { ul.appendChild(el("li", r[2] > r[1] ? "up" : "down", r[0] + " " + r[1] + " → " + r[2])); });
      art.appendChild(ul);
    }
    art.appendChild(triage(i));
    art.addEventListener("click", function (ev) { if (ev.target === art || ev.target.tagName === "DD") setCurrent(i.id, false); });
    return art;
  }

  function fillBody(sec) {
    var v = sec._v, body = sec.querySelector(".sent-body");
    body.textContent = "";
    var src = el("dl", "texts src-block");
    src.appendChild(el("dt", null, v.s.sides[0] + " #" + v.s.source_id));
    var d1 = el("dd", null, v.s.source); d1.setAttribute("dir", "auto"); if (SRC) d1.setAttribute("lang", SRC);
    src.appendChild(d1);
    src.appendChild(el("dt", null, "translation"));
    var d2 = el("dd", null, v.s.translation); d2.setAttribute("dir", "auto"); if (TGT) d2.setAttribute("lang", TGT);
    src.appendChild(d2);
    body.appendChild(src);
    v.issues.forEach(function (i) { body.appendChild(issueCard(i)); });
    var hidden = v.s.issues.length - v.issues.length;
    if (hidden) body.appendChild(el("p", "hidden-note", hidden + " more finding" + (hidden > 1 ? "s" : "") + " of this sentence hidden by the filters"));
  }

  function toggle(sec, open) {
    var body = sec.querySelector(".sent-body"), head = sec.querySelector(".sent-head");
    if (open === undefined) open = body.hidden;
    if (open && !body.childNodes.length) fillBody(sec);
    body.hidden = !open;
    head.setAttribute("aria-expanded", String(open));
  }

  function renderMore() {
    var frag = document.createDocumentFragment(), end = Math.min(visible.length, shown + PAGE);
    for (var n = shown; n < end; n++) frag.appendChild(sentRow(visible[n]));
    listEl.appendChild(frag);
    shown = end;
    moreBtn.hidden = shown >= visible.length;
    moreBtn.textContent = "show more (" + (visible.length - shown) + " more sentences)";
  }

  // Flagged sentences are distinct source sentences (one may hold findings of several groups).
  function status() {
    var ids = Object.create(null), n = 0;
    visible.forEach(function (v) { if (!ids[v.s.source_id]) { ids[v.s.source_id] = 1; n++; } });
    statusEl.textContent = "showing " + n + " of " + FLAGGED + " flagged sentences, " +
      flat.length + " of " + data.issue_count + " findings";
  }

  function render() {
    compute();
    listEl.textContent = "";
    shown = 0;
    renderMore();
    status();
    if (cur && flat.indexOf(cur) < 0) cur = null;
  }

  // ---- triage
  function save() {
    if (!storageOk) return;
    try { window.localStorage.setItem(STORE, JSON.stringify(marks)); }
    catch (e) { storageOk = false; $("storage-note").textContent = "marks could not be saved in this browser; export them"; }
  }
  function setMark(id, label, category) {
    var key = byId[id].key, prev = marks[key] || {};
    if (label === null) marks[key] = {label: null, category: null};
    else marks[key] = {label: label, category: label === "bug" ? (category !== undefined ? category : prev.category || null) : null};
    save();
    refreshIssue(id);
    triageSummary();
  }
  function refreshIssue(id) {
    var i = byId[id], old = document.getElementById("i-" + id);
    if (old) { var card = issueCard(i); old.replaceWith(card); if (cur === id) card.focus({preventScroll: true}); }
    var sec = document.getElementById("s-" + i._s.key);
    if (sec) {
      var head = sec.querySelector(".sent-head"), b = head.querySelector(".badge");
      if (b) b.remove();
      var nb = badge(i._s);
      if (nb) head.insertBefore(nb, head.querySelector(".preview"));
    }
  }
  function triageSummary() {
    var bugs = 0, ok = 0, cats = Object.create(null);
    Object.keys(marks).forEach(function (k) {
      var m = marks[k];
      if (!m.label || !byKey[k]) return;
      if (m.label === "bug") { bugs++; cats[m.category || "uncategorised"] = (cats[m.category || "uncategorised"] || 0) + 1; }
      else ok++;
    });
    $("triage-summary").textContent = (bugs + ok) + " of " + data.issue_count + " findings marked: " + bugs + " bug, " + ok + " not a bug";
    var table = $("precision-table"), topk = (data.signature && data.signature.top_k) || 0;
    if (!topk) SENTS.forEach(function (s) { topk = Math.max(topk, s.issues.length); });
    table.textContent = "";
    var cap = el("caption", null, "top-k precision per relation (unmarked = not a bug)"); cap.style.textAlign = "start";
    table.appendChild(cap);
    data.groups.forEach(function (g) {
      var sents = SENTS.filter(function (s) { return s.group === g.group; });
      for (var k = 1; k <= Math.min(topk, 10); k++) {
        var hits = 0;
        sents.forEach(function (s) { if (s.issues.slice(0, k).some(function (i) { return labelOf(i) === "bug"; })) hits++; });
        var tr = el("tr");
        tr.dataset.group = g.group;
        tr.appendChild(el("th", null, g.group + " top-" + k));
        tr.appendChild(el("td", null, sents.length ? (100 * hits / sents.length).toFixed(1) + "% (" + hits + "/" + sents.length + ")" : "-"));
        tr.setAttribute("scope", "row");
        table.appendChild(tr);
      }
    });
    CATS.concat([["uncategorised", "uncategorised"]]).forEach(function (c) {
      if (!cats[c[0]]) return;
      var tr = el("tr"); tr.appendChild(el("th", null, c[1])); tr.appendChild(el("td", null, cats[c[0]])); table.appendChild(tr);
    });
  }
  function exportRows() {
    var rows = [];
    SENTS.forEach(function (s) {
      s.issues.forEach(function (i) {
        var m = marks[i.key];
        if (!m || !m.label) return;
        rows.push({issue_id: i.id, key: i.key, relation: i.relation, kind: i.kind || "", source_id: i.source_id, rank: i.rank,
          label: m.label, category: m.category || null, perturbed: i.perturbed, run: data.run_key, cluster_id: i.cluster || null});
      });
    });
    var order = {};
    data.groups.forEach(function (g, n) { order[g.group] = n; });
    rows.sort(function (a, b) {
      return order[byId[a.issue_id].group] - order[byId[b.issue_id].group] || a.source_id - b.source_id || a.rank - b.rank;
    });
    return rows.map(function (r) { return JSON.stringify(r); }).join("\n") + (rows.length ? "\n" : "");
  }
  // The page's id of a label line without issue_id: "12-1" for sit, "rti:12-1" for other groups.
  function labelId(r) {
    var g = r.relation ? r.relation + (r.kind && r.relation.indexOf(".") < 0 ? "." + r.kind : "") : "sit";
    return (g === "sit" ? "" : g + ":") + r.source_id + "-" + r.rank;
  }
  function exportLabels() {
    var blob = new Blob([exportRows()], {type: "application/x-ndjson"});
    var url = URL.createObjectURL(blob), a = document.createElement("a");
    a.href = url; a.download = "labels.jsonl";
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }
  // The .sitignore lines of the findings marked "not a bug" (sit.ignorefile's format: fingerprint, group,
  // a note): appended to the ignore file, sit check, run and compare leave those findings out.
  function ignoreLines() {
    var lines = [];
    SENTS.forEach(function (s) {
      s.issues.forEach(function (i) {
        var m = marks[i.key];
        if (m && m.label === "not_bug" && i.fingerprint)
          lines.push(i.fingerprint + " " + i.group + "  # " + String(i.original || "").replace(/\s+/g, " ").trim().slice(0, 60));
      });
    });
    return lines;
  }
  function exportIgnore() {
    var lines = ignoreLines();
    var head = "# sit's suppressions: FINGERPRINT GROUP  # source (the findings marked not a bug in report.html; docs/check.md)\n";
    var blob = new Blob([head + lines.map(function (l) { return l + "\n"; }).join("")], {type: "text/plain"});
    var url = URL.createObjectURL(blob), a = document.createElement("a");
    a.href = url; a.download = "sitignore.txt";
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
    $("storage-note").textContent = lines.length + " suppression(s) saved: append them to .sitignore";
  }
  function importLabels(file) {
    var reader = new FileReader();
    reader.onload = function () {
      var n = 0, bad = 0;
      String(reader.result).split(/\r?\n/).forEach(function (line) {
        if (!line.trim()) return;
        try {
          var r = JSON.parse(line), i = (r.key && byKey[r.key]) || byId[r.issue_id || labelId(r)];
          if (!i || (r.perturbed && r.perturbed !== i.perturbed)) { bad++; return; }
          marks[i.key] = {label: r.label === "bug" || r.label === "not_bug" ? r.label : null, category: r.category || null};
          n++;
        } catch (e) { bad++; }
      });
      save(); render(); triageSummary();
      $("storage-note").textContent = "imported " + n + " labels" + (bad ? ", skipped " + bad : "");
    };
    reader.readAsText(file);
  }

  // ---- navigation
  function ensureShown(id) {
    var key = byId[id]._s.key, idx = -1;
    for (var n = 0; n < visible.length; n++) if (visible[n].s.key === key) { idx = n; break; }
    while (idx >= shown) renderMore();
    var sec = document.getElementById("s-" + key);
    if (sec) toggle(sec, true);
  }
  function setCurrent(id, scroll) {
    var old = cur && document.getElementById("i-" + cur);
    if (old) old.classList.remove("current");
    cur = id;
    if (!id) return;
    ensureShown(id);
    var card = document.getElementById("i-" + id);
    if (card) {
      card.classList.add("current");
      card.focus({preventScroll: true});
      if (scroll !== false) card.scrollIntoView({block: "nearest"});
    }
  }
  function move(delta) {
    if (!flat.length) return;
    var n = cur ? flat.indexOf(cur) : -1;
    n = n < 0 ? (delta > 0 ? 0 : flat.length - 1) : Math.max(0, Math.min(flat.length - 1, n + delta));
    setCurrent(flat[n]);
  }

  document.addEventListener("keydown", function (ev) {
    var t = ev.target, tag = t && t.tagName;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      if (ev.key === "Escape") t.blur();
      return;
    }
    var k = ev.key;
    if (k === "j") move(1);
    else if (k === "k") move(-1);
    else if (k === "x" && cur) setMark(cur, labelOf(byId[cur]) === "bug" ? null : "bug");
    else if (k === "n" && cur) setMark(cur, labelOf(byId[cur]) === "not_bug" ? null : "not_bug");
    else if (k === "0" && cur) setMark(cur, null);
    else if (/^[1-9]$/.test(k) && cur && CATS[+k - 1]) setMark(cur, "bug", CATS[+k - 1][0]);
    else if (k === "o") {
      var sec = cur ? document.getElementById("s-" + byId[cur]._s.key) : null;
      if (sec) toggle(sec);
    }
    else if (k === "/") $("f-q").focus();
    else if (k === "?") $("b-help").click();
    else return;
    ev.preventDefault();
  });

  // ---- controls
  var timer = null;
  function readFilters() {
    var m = parseFloat($("f-min").value);
    state.min = isFinite(m) ? m : 0;
    state.group = $("f-group").value;
    state.cluster = $("f-cluster").value;
    state.rel = $("f-rel").value;
    state.q = $("f-q").value.trim().toLowerCase();
    state.label = $("f-label").value;
    state.sort = $("f-sort").value;
    render();
  }
  ["f-group", "f-cluster", "f-min", "f-rel", "f-label", "f-sort"].forEach(function (id) { $(id).addEventListener("change", readFilters); });
  $("f-min").addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(readFilters, 200); });
  $("f-q").addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(readFilters, 200); });
  moreBtn.addEventListener("click", renderMore);
  $("b-expand").addEventListener("click", function () {
    while (shown < visible.length && shown < 500) renderMore();
    Array.prototype.forEach.call(listEl.querySelectorAll(".sent"), function (s) { toggle(s, true); });
  });
  $("b-collapse").addEventListener("click", function () {
    Array.prototype.forEach.call(listEl.querySelectorAll(".sent"), function (s) { toggle(s, false); });
  });
  $("b-export").addEventListener("click", exportLabels);
  $("b-ignore").addEventListener("click", exportIgnore);
  $("b-import").addEventListener("change", function (ev) { if (ev.target.files[0]) importLabels(ev.target.files[0]); ev.target.value = ""; });
  $("b-help").addEventListener("click", function () {
    var h = $("help"); h.hidden = !h.hidden; $("b-help").setAttribute("aria-expanded", String(!h.hidden));
  });
  function chartClick(sel, fn) {
    Array.prototype.forEach.call(document.querySelectorAll(sel), function (g) {
      g.addEventListener("click", function () { fn(g); });
      g.addEventListener("keydown", function (ev) { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fn(g); } });
    });
  }
  // The summary's groups and words filter the list.
  Array.prototype.forEach.call(document.querySelectorAll(".group-link"), function (b) {
    b.addEventListener("click", function () { $("f-group").value = b.getAttribute("data-group"); readFilters(); listEl.scrollIntoView(); });
  });
  Array.prototype.forEach.call(document.querySelectorAll(".word-link"), function (b) {
    b.addEventListener("click", function () {
      $("f-group").value = b.getAttribute("data-group"); $("f-q").value = b.getAttribute("data-word");
      readFilters(); listEl.scrollIntoView();
    });
  });
  if ($("b-more-clusters")) $("b-more-clusters").addEventListener("click", function () {
    var t = $("more-clusters"); t.hidden = !t.hidden; $("b-more-clusters").setAttribute("aria-expanded", String(!t.hidden));
  });
  // A root cause's title shows its findings; its marks apply to every one of them.
  Array.prototype.forEach.call(document.querySelectorAll(".cluster-link"), function (b) {
    b.addEventListener("click", function () {
      $("f-group").value = ""; $("f-cluster").value = b.getAttribute("data-cluster");
      readFilters(); listEl.scrollIntoView();
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll(".cluster-mark"), function (b) {
    b.addEventListener("click", function () {
      var cid = b.getAttribute("data-cluster"), on = b.getAttribute("aria-pressed") !== "true";
      var label = on ? b.getAttribute("data-label") : null;
      Object.keys(byId).forEach(function (id) { if (byId[id].cluster === cid) setMark(id, label); });
      Array.prototype.forEach.call(document.querySelectorAll('.cluster-mark[data-cluster="' + cid + '"]'), function (o) {
        o.setAttribute("aria-pressed", String(on && o === b));
      });
    });
  });
  chartClick(".hist-bar", function (g) { $("f-min").value = g.getAttribute("data-min"); readFilters(); });
  chartClick(".rel-bar", function (g) {
    var rel = g.getAttribute("data-rel");
    $("f-rel").value = $("f-rel").value === rel ? "" : rel;
    readFilters();
  });
  if (!storageOk) $("storage-note").textContent = "this browser keeps no marks for files; export them before closing";
  window.sitReport = {exportRows: exportRows, marks: marks, state: state};
  render();
  triageSummary();
  // The page opens on the findings: the worst three sentences start open, their issues shown.
  if (!location.hash) Array.prototype.slice.call(listEl.querySelectorAll("section.sent"), 0, 3)
    .forEach(function (sec) { toggle(sec, true); });
  // Links to one issue (report.html#i-12-1) or sentence (#s-12) open it.
  // A sentence by its key ("rti:12"), or by its source id alone ("12", as links made before groups).
  function sentOf(key) {
    if (sentById[key]) return sentById[key];
    for (var n = 0; n < SENTS.length; n++) if (String(SENTS[n].source_id) === key) return SENTS[n];
    return null;
  }
  function follow() {
    var h = decodeURIComponent(location.hash.slice(1));
    if (/^i-/.test(h) && byId[h.slice(2)] && flat.indexOf(h.slice(2)) >= 0) setCurrent(h.slice(2));
    else if (/^s-/.test(h) && sentOf(h.slice(2))) {
      var first = sentOf(h.slice(2)).issues[0].id;
      if (flat.indexOf(first) >= 0) setCurrent(first);
    }
  }
  window.addEventListener("hashchange", follow);
  follow();
})();
