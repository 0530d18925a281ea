// linkgraph explorer: the page's script. Plain JavaScript, no library, nothing fetched
// but this server's own JSON API (and, in a saved file, nothing at all).
"use strict";
(function () {
  const CONFIG = JSON.parse(document.getElementById("lg-config").textContent);
  const FILE_MODE = CONFIG.mode === "file";
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  // the colours of linkgraph.draw.dot.STYLE, so the board reads like diagrams/
  const FAMILY_COLOR = { cell: "#616161", house: "#1565c0", group: "#8e24aa", als: "#ef6c00",
    subset: "#00897b", fish: "#00897b", net: "#00897b", pattern: "#00897b" };
  const ALS_COLORS = ["#ef6c00", "#6d4c41", "#f9a825", "#d84315", "#8d6e63"];
  const CHAIN_KINDS = new Set(["chain", "net", "als", "coloring"]);

  const state = {
    data: null,          // explore(): board, solve (with proofs), steps, links
    puzzle: "",          // the text the data was loaded from
    sel: 0,              // 0 start, 1..n step k (the position before it, its proof drawn), n+1 final
    tab: "steps",
    hint: 0,             // graded hint level for the next step: 0 none, 1 technique, 2 house, 3 conclusion
    sim: { asserts: new Map(), depth: 0, result: null, round: 0, explain: null, timer: null, seq: 0 },
    path: { from: null, to: null, result: null, seq: 0 },
    links: new Map(),    // position text -> links JSON
    ladder: "default",   // the ladder the data was solved with
    restoring: false,    // while a shared address is being shown: do not rewrite it half-way
  };

  // ---- small helpers -------------------------------------------------------------------
  function el(tag, attrs, parent) {
    const node = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }
  function html(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function setStatus(text, error) {
    const s = $("status");
    s.textContent = text || "";
    s.classList.toggle("error", !!error);
  }
  function parseCand(text) {   // "r2c8#1" -> {r: 1, c: 7, d: 1}
    const m = /^r(\d+)c(\d+)#(\d+)$/.exec(text);
    return m ? { r: +m[1] - 1, c: +m[2] - 1, d: +m[3] } : null;
  }
  function parseLit(text) {    // "+r2c8#1" -> {on, cand}
    return { on: text[0] === "+", cand: text.slice(1) };
  }
  function candText(r, c, d) { return `r${r + 1}c${c + 1}#${d}`; }
  function size() { return state.data ? state.data.board.size : 9; }
  function steps() { return state.data ? state.data.solve.steps : []; }
  function lastIndex() { return steps().length + 1; }

  async function api(route, params) {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`/api/${route}?${query}`, { headers: { Accept: "application/json" } });
    let body;
    try { body = await response.json(); } catch (e) { body = { error: `HTTP ${response.status}` }; }
    if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
    return { body, status: +(response.headers.get("X-Linkgraph-Status") || 0) };
  }

  // ---- positions -----------------------------------------------------------------------
  function tokensOf(candidates) {  // candidate grid text -> one token per cell
    return candidates.split(/\s+/).filter((t) => t.length);
  }
  function positionText(k) {
    const s = state.data.solve;
    if (k <= 0) return s.start;
    if (k <= s.steps.length) return s.steps[k - 1].before;
    return s.candidates;
  }
  function positionTokens(k) { return tokensOf(positionText(k)); }

  // ---- the board -----------------------------------------------------------------------
  const board = { S: 60, M: 22, k: 3, rowsK: 3 };

  function layout() {
    const n = size();
    board.S = Math.floor(540 / n);
    board.k = Math.ceil(Math.sqrt(n));
    board.rowsK = Math.ceil(n / board.k);
  }
  function candXY(r, c, d) {
    const { S, M, k, rowsK } = board;
    const i = d - 1;
    return { x: M + c * S + ((i % k) + 0.5) * S / k, y: M + r * S + (Math.floor(i / k) + 0.5) * S / rowsK };
  }
  function cellXY(r, c) { return { x: board.M + c * board.S, y: board.M + r * board.S }; }
  function markRadius() { return Math.min(board.S / board.k, board.S / board.rowsK) * 0.46; }

  function drawBoard(overlay) {
    const svg = $("board");
    svg.replaceChildren();
    if (!state.data) return;
    layout();
    const n = size();
    const { S, M } = board;
    const W = 2 * M + n * S;
    svg.setAttribute("viewBox", `0 0 ${W} ${W}`);
    const defs = el("defs", {}, svg);
    const colors = new Set(Object.values(FAMILY_COLOR).concat(["#e65100"]));
    for (const color of colors) {
      const marker = el("marker", { id: "arrow" + color.slice(1), viewBox: "0 0 10 10", refX: "9", refY: "5",
        markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse", markerUnits: "userSpaceOnUse" }, defs);
      el("path", { d: "M0,0 L10,5 L0,10 z", fill: color }, marker);
    }
    const tokens = overlay.tokens;
    const givens = state.data.solve.givens || "";
    const symbols = state.data.board.symbols;
    const gBg = el("g", { class: "backgrounds" }, svg);
    const gShade = el("g", { class: "shades" }, svg);
    const gLines = el("g", { class: "lines" }, svg);
    const gOutline = el("g", { class: "outlines" }, svg);
    const gArrows = el("g", { class: "arrows" }, svg);
    const gMarks = el("g", { class: "marks" }, svg);
    const gText = el("g", { class: "digits" }, svg);
    const gHit = el("g", { class: "hits" }, svg);
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const i = r * n + c;
        const p = cellXY(r, c);
        const solved = tokens[i].length === 1;
        el("rect", { class: "cellbg" + (solved ? " solved" : ""), x: p.x, y: p.y, width: S, height: S }, gBg);
      }
    }
    for (const shade of overlay.shades) {
      for (const i of shade.cells) {
        const p = cellXY(Math.floor(i / n), i % n);
        el("rect", { class: shade.cls, x: p.x + 1, y: p.y + 1, width: S - 2, height: S - 2 }, gShade);
      }
    }
    // grid lines: thin between cells, thick between regions
    const regions = state.data.board.regions;
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const i = r * n + c;
        const p = cellXY(r, c);
        const rightThick = c === n - 1 || regions[i] !== regions[i + 1];
        const downThick = r === n - 1 || regions[i] !== regions[i + n];
        el("line", { class: rightThick ? "thick" : "thin", x1: p.x + S, y1: p.y, x2: p.x + S, y2: p.y + S }, rightThick ? gText : gLines);
        el("line", { class: downThick ? "thick" : "thin", x1: p.x, y1: p.y + S, x2: p.x + S, y2: p.y + S }, downThick ? gText : gLines);
        if (c === 0) el("line", { class: "thick", x1: p.x, y1: p.y, x2: p.x, y2: p.y + S }, gText);
        if (r === 0) el("line", { class: "thick", x1: p.x, y1: p.y, x2: p.x + S, y2: p.y }, gText);
      }
      el("text", { class: "label", x: M / 2, y: M + r * S + S / 2 + 4, "text-anchor": "middle" }, gBg).textContent = r + 1;
      el("text", { class: "label", x: M + r * S + S / 2, y: M / 2 + 4, "text-anchor": "middle" }, gBg).textContent = r + 1;
    }
    // outlines: one per ALS (its cells' boundary), a frame per group
    overlay.outlines.forEach((o, idx) => drawOutline(gOutline, o, idx));
    for (const ring of overlay.rings) {
      const cc = parseCand(ring.cand);
      if (!cc) continue;
      const q = candXY(cc.r, cc.c, cc.d);
      el("circle", { class: ring.cls, cx: q.x, cy: q.y, r: markRadius() + 1.5 }, gOutline);
    }
    // arrows
    overlay.arrows.forEach((a, idx) => drawArrow(gArrows, a, idx));
    // marks (literal shapes) under the digits
    const rad = markRadius();
    for (const [cand, m] of overlay.marks) {
      const cc = parseCand(cand);
      if (!cc) continue;
      if (tokens[cc.r * n + cc.c].length === 1) {  // a solved cell: the mark frames its digit
        const p = cellXY(cc.r, cc.c);
        const sign = m.on ? "on" : "off";
        const info = m.on || m.off;
        el("rect", { class: ["mark", "solved", sign].concat(info.classes || []).join(" "), x: p.x + 4, y: p.y + 4,
          width: S - 8, height: S - 8, rx: 8, "data-lit": (m.on ? "+" : "-") + cand,
          "data-round": info.round === undefined ? "" : info.round }, gMarks);
        continue;
      }
      const q = candXY(cc.r, cc.c, cc.d);
      const variants = [];
      if (m.on) variants.push(["on", m.on]);
      if (m.off) variants.push(["off", m.off]);
      variants.forEach(([sign, info], j) => {
        const twin = variants.length === 2;
        const dx = twin ? (j === 0 ? -rad * 0.82 : rad * 0.82) : 0;
        const rr = twin ? rad * 0.8 : rad;
        const cls = ["mark", sign].concat(info.classes || []).join(" ");
        const attrs = { class: cls, "data-lit": (sign === "on" ? "+" : "-") + cand };
        if (info.round !== undefined) attrs["data-round"] = info.round;
        if (sign === "on") {
          el("rect", { ...attrs, x: q.x + dx - rr, y: q.y - rr, width: 2 * rr, height: 2 * rr, rx: rr * 0.35 }, gMarks);
        } else {
          el("ellipse", { ...attrs, cx: q.x + dx, cy: q.y, rx: rr * 1.06, ry: rr * 0.92 }, gMarks);
        }
      });
    }
    for (const p of overlay.places) {
      const cc = parseCand(p);
      if (!cc) continue;
      const q = candXY(cc.r, cc.c, cc.d);
      el("rect", { class: "mark place", x: q.x - rad, y: q.y - rad, width: 2 * rad, height: 2 * rad, rx: rad * 0.35,
        "data-place": p }, gMarks);
    }
    // digits
    const candFont = Math.max(8, Math.round(S / board.rowsK * 0.62));
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const i = r * n + c;
        const token = tokens[i];
        const p = cellXY(r, c);
        if (token.length === 1) {
          const given = givens[i] && givens[i] !== ".";
          el("text", { class: "value" + (given ? " given" : ""), x: p.x + S / 2, y: p.y + S * 0.70,
            "text-anchor": "middle", "font-size": Math.round(S * 0.6), "data-cell": `r${r + 1}c${c + 1}` }, gText).textContent = token;
          continue;
        }
        for (const ch of token) {
          const d = symbols.indexOf(ch.toUpperCase()) + 1;
          if (d <= 0) continue;
          const cand = candText(r, c, d);
          const q = candXY(r, c, d);
          const m = overlay.marks.get(cand);
          let cls = "cand";
          if (m && m.on) cls += " lit-on";
          else if (m && m.off) cls += " lit-off";
          if (overlay.elims.has(cand)) cls += " elim";
          const twin = m && m.on && m.off;  // both literals of one candidate: a digit in each half
          for (const dx of twin ? [-markRadius() * 0.82, markRadius() * 0.82] : [0]) {
            el("text", { class: cls, x: q.x + dx, y: q.y + candFont * 0.36, "text-anchor": "middle",
              "font-size": twin ? Math.round(candFont * 0.85) : candFont, "data-cand": cand }, gText).textContent = ch;
          }
          el("rect", { class: "hit", x: q.x - S / board.k / 2, y: q.y - S / board.rowsK / 2, width: S / board.k,
            height: S / board.rowsK, "data-cand": cand }, gHit);
        }
      }
    }
  }

  function centroid(cands) {
    let x = 0, y = 0, count = 0;
    for (const t of cands) {
      const cc = parseCand(t);
      if (!cc) continue;
      const q = candXY(cc.r, cc.c, cc.d);
      x += q.x; y += q.y; count++;
    }
    return count ? { x: x / count, y: y / count } : null;
  }

  function drawArrow(g, a, idx) {
    const p = centroid(a.from), q = centroid(a.to);
    if (!p || !q) return;
    const dx = q.x - p.x, dy = q.y - p.y;
    const len = Math.hypot(dx, dy);
    if (len < 1) return;
    const rad = markRadius() + 1;
    const ux = dx / len, uy = dy / len;
    const bend = Math.min(0.25 * len, 28) * (idx % 2 ? -1 : 1);
    const cx = (p.x + q.x) / 2 - uy * bend, cy = (p.y + q.y) / 2 + ux * bend;
    // start and end on the marks' borders, in the direction of the control point
    const s = shorten(p, { x: cx, y: cy }, rad), e = shorten(q, { x: cx, y: cy }, rad + 1);
    const color = a.color || FAMILY_COLOR[a.family] || "#616161";
    const width = a.kind === "strong" ? 1.9 : a.kind === "weak" ? 1.3 : 2.4;
    el("path", { class: "arrow " + a.kind, d: `M${s.x},${s.y} Q${cx},${cy} ${e.x},${e.y}`, stroke: color,
      "stroke-width": width, "marker-end": `url(#arrow${color.slice(1)})`, "data-from": a.fromText || "",
      "data-to": a.toText || "", "data-via": a.via || "" }, g).appendChild(titleOf(`${a.kind} ${a.family} ${a.via || ""}`));
  }
  function titleOf(text) { const t = document.createElementNS(SVGNS, "title"); t.textContent = text; return t; }
  function shorten(p, toward, by) {
    const dx = toward.x - p.x, dy = toward.y - p.y, len = Math.hypot(dx, dy) || 1;
    return { x: p.x + dx / len * by, y: p.y + dy / len * by };
  }

  function drawOutline(g, o, idx) {
    const n = size(), S = board.S;
    if (o.kind === "group") {
      const pts = o.cands.map(parseCand).filter(Boolean).map((c) => candXY(c.r, c.c, c.d));
      if (!pts.length) return;
      const pad = markRadius() + 3;
      const xs = pts.map((p) => p.x), ys = pts.map((p) => p.y);
      el("rect", { class: "outline-group", x: Math.min(...xs) - pad, y: Math.min(...ys) - pad,
        width: Math.max(...xs) - Math.min(...xs) + 2 * pad, height: Math.max(...ys) - Math.min(...ys) + 2 * pad,
        rx: 6, "data-outline": o.text }, g);
      return;
    }
    // an ALS: the boundary of its cells, inset a little more for each further ALS
    const cells = new Set(o.cands.map(parseCand).filter(Boolean).map((c) => c.r * n + c.c));
    const inset = 1.5 + 2.5 * (idx % 4);
    const color = ALS_COLORS[idx % ALS_COLORS.length];
    const parts = [];
    for (const i of cells) {
      const r = Math.floor(i / n), c = i % n;
      const p = cellXY(r, c);
      const x0 = p.x + inset, x1 = p.x + S - inset, y0 = p.y + inset, y1 = p.y + S - inset;
      const has = (rr, cc) => rr >= 0 && cc >= 0 && rr < n && cc < n && cells.has(rr * n + cc);
      const left = has(r, c - 1), right = has(r, c + 1), up = has(r - 1, c), down = has(r + 1, c);
      if (!up) parts.push(`M${left ? p.x : x0},${y0} H${right ? p.x + S : x1}`);
      if (!down) parts.push(`M${left ? p.x : x0},${y1} H${right ? p.x + S : x1}`);
      if (!left) parts.push(`M${x0},${up ? p.y : y0} V${down ? p.y + S : y1}`);
      if (!right) parts.push(`M${x1},${up ? p.y : y0} V${down ? p.y + S : y1}`);
    }
    const path = el("path", { class: "outline-als", d: parts.join(" "), stroke: color, "data-outline": o.text }, g);
    path.appendChild(titleOf(`ALS ${o.text}`));
  }

  // ---- overlays: what is drawn on top of a position ---------------------------------------
  function emptyOverlay(tokens) {
    return { tokens, marks: new Map(), arrows: [], outlines: [], shades: [], rings: [], elims: new Set(), places: [] };
  }
  function addMark(overlay, litText, classes, extra) {
    const lit = parseLit(litText);
    const entry = overlay.marks.get(lit.cand) || {};
    const key = lit.on ? "on" : "off";
    entry[key] = Object.assign({ classes: classes || [] }, extra || {});
    overlay.marks.set(lit.cand, entry);
  }
  function proofOverlay(overlay, proof, opts) {
    const byId = new Map(proof.nodes.map((nd) => [nd.id, nd]));
    const indegree = new Map();
    for (const e of proof.edges) indegree.set(e.to, (indegree.get(e.to) || 0) + 1);
    for (const nd of proof.nodes) {
      const classes = [];
      if (nd.role === "premise") classes.push("premise");
      if (nd.role === "conclusion") classes.push("conclusion");
      if (nd.role === "contradiction") classes.push("contradiction");
      if ((indegree.get(nd.id) || 0) > 1 && nd.role === "inner") classes.push("join");
      if (nd.node === "candidate") addMark(overlay, nd.id, classes);
    }
    for (const e of proof.edges) {
      const a = byId.get(e.from), b = byId.get(e.to);
      overlay.arrows.push({ from: a ? a.cands : [e.from.slice(1)], to: b ? b.cands : [e.to.slice(1)],
        kind: e.kind, family: e.family, via: e.via, fromText: e.from, toText: e.to });
    }
    for (const o of proof.outlines) overlay.outlines.push(o);
    const base = proof.sets.base || [], cover = proof.sets.cover || [];
    const n = size();
    const cellsOf = (set) => set.cands.map(parseCand).filter(Boolean).map((c) => c.r * n + c.c);
    for (const set of cover) overlay.shades.push({ cls: "shade-cover", cells: cellsOf(set) });
    for (const set of base) {
      overlay.shades.push({ cls: "shade-base", cells: cellsOf(set) });
      if (set.text.includes("#")) for (const t of set.cands) overlay.rings.push({ cls: "ring-base", cand: t });
    }
    for (const f of proof.sets.fins || []) overlay.rings.push({ cls: "ring-fin", cand: f });
    return overlay;
  }

  // ---- the views -----------------------------------------------------------------------
  function render() {
    if (!state.data) { drawBoard(null); return; }
    const k = state.sel;
    const overlay = emptyOverlay(positionTokens(k));
    let caption = "";
    let flow = null, flowTitle = "Flow graph";
    const s = steps();
    if (state.tab === "sim") {
      simOverlay(overlay);
      caption = simCaption();
      if (state.sim.result && state.sim.result.explain) {
        flow = state.sim.result.explain.svg || "";
        flowTitle = `Proof of ${state.sim.result.explain.target} (${state.sim.result.explain.support_size} literals)`;
      } else {
        flowTitle = "Flow graph: choose a consequence to explain it";
      }
    } else if (state.tab === "path") {
      pathOverlay(overlay);
      caption = pathCaption();
      flowTitle = "Flow graph: the path is drawn on the board";
    } else {
      if (k >= 1 && k <= s.length) {
        const step = s[k - 1];
        proofOverlay(overlay, step.proof);
        step.eliminations.forEach((c) => overlay.elims.add(c));
        overlay.places.push(...step.placements);
        const extra = state.data.steps[k - 1];
        caption = `<b>Step ${k} of ${s.length}</b> · ${esc(extra.title)} (${step.rating.toFixed(1)}): <code>${esc(step.notation)}</code>`;
        flow = extra.svg;
        flowTitle = `Flow graph of step ${k}: ${esc(step.technique)}`;
      } else if (k === 0) {
        caption = "<b>Start position</b> · select a step, or use the arrow keys";
      } else {
        caption = `<b>Final position</b> · ${state.data.solve.solved ? "solved" : "stuck"}`;
      }
      hintOverlay(overlay);
    }
    drawBoard(overlay);
    $("caption").innerHTML = caption;
    $("flow-title").textContent = flowTitle.replace(/<[^>]*>/g, "");
    const flowBox = $("flow");
    if (flow) {
      flowBox.innerHTML = flow;
    } else {
      const empty = {
        steps: k >= 1 && k <= s.length ? "This step is a pattern (no links to draw), or Graphviz's dot is missing."
          : "Select a chain or net step to see its flow graph.",
        sim: "Round 0 holds the assertions; round t the literals that follow from those of earlier rounds. " +
          "Click a literal in the round list, or explain the contradiction, to draw its proof here.",
        path: "The path is drawn on the board and listed under Path.",
        links: "Link counts of the position shown on the board.",
      }[state.tab];
      flowBox.replaceChildren(html("p", { class: "none" }, empty || ""));
    }
    renderStepList();
    renderHint();
    if (state.tab === "links") renderLinks();
    writeAddress();
  }

  // ---- the address: what is shown, as a link to share ------------------------------------------
  // #puzzle=…&ladder=…&step=k[&tab=sim&assert=+r2c8#1,-r1c1#5&depth=1&round=3][&tab=path&from=…&to=…]
  // (URLSearchParams escapes the "#" of a candidate as %23). Kept up to date with replaceState,
  // so the back button is not filled with every arrow key; read on load and on hashchange.
  function writeAddress() {
    if (FILE_MODE || !state.data || state.restoring) return;
    const q = new URLSearchParams({ puzzle: state.puzzle, ladder: state.ladder, step: String(state.sel) });
    if (state.tab !== "steps") q.set("tab", state.tab);
    if (state.tab === "sim" && state.sim.asserts.size) {
      q.set("assert", [...state.sim.asserts].map(([c, s]) => s + c).join(","));
      q.set("depth", String(state.sim.depth));
      if (state.sim.result) q.set("round", String(state.sim.round));
    }
    if (state.tab === "path" && state.path.from) {
      q.set("from", state.path.from);
      if (state.path.to) q.set("to", state.path.to);
    }
    const hash = "#" + q.toString();
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }
  function readAddress() {
    const q = new URLSearchParams(location.hash.slice(1));
    const get = (key) => (q.get(key) || "").trim();
    return { puzzle: get("puzzle"), ladder: get("ladder") || "default", step: parseInt(get("step"), 10) || 0,
      tab: get("tab"), assert: get("assert"), depth: parseInt(get("depth"), 10) || 0,
      round: get("round") === "" ? null : parseInt(get("round"), 10), from: get("from"), to: get("to") };
  }
  async function showAddress(a) {
    // the puzzle first (when it is not the one shown), then the step, the tab and its state
    if (!a.puzzle) return;
    state.restoring = true;
    try {
      if (a.puzzle !== state.puzzle || a.ladder !== state.ladder) {
        $("puzzle-input").value = a.puzzle;
        $("ladder-select").value = a.ladder;
        if (!(await load(a.puzzle, a.ladder))) return;
      }
      select(a.step);
      setTab(["steps", "sim", "path", "links"].includes(a.tab) ? a.tab : "steps");
      if (state.tab === "sim" && a.assert) {
        const items = a.assert.split(/[\s,]+/).filter((t) => t);
        state.sim.asserts = new Map(items.map((t) => (t[0] === "+" || t[0] === "-") ? [t.slice(1), t[0]] : [t, "+"]));
        state.sim.depth = [0, 1, 2].includes(a.depth) ? a.depth : 0;
        $("sim-depth").value = String(state.sim.depth);
        $("sim-assert").value = assertText();
        state.sim.result = null;
        await runSim(null);
        if (state.sim.result && a.round !== null && !Number.isNaN(a.round)) setRound(a.round);
      } else if (state.tab === "path" && a.from) {
        state.path = { from: a.from, to: a.to || null, result: null, seq: state.path.seq + 1 };
        await runPath();
        renderPathPanel();
      }
    } finally {
      state.restoring = false;
    }
    render();
  }

  function esc(text) {
    return String(text).replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch]));
  }

  function renderStepList() {
    const body = $("step-list").tBodies[0];
    if (body.dataset.loaded !== state.puzzle + "|" + steps().length) {
      body.replaceChildren();
      const add = (k, cells, cls) => {
        const tr = html("tr", { "data-k": String(k), class: cls || "" });
        cells.forEach(([c, text]) => tr.appendChild(html("td", { class: c }, text)));
        tr.addEventListener("click", () => select(k));
        body.appendChild(tr);
      };
      add(0, [["n", ""], ["rating", ""], ["technique", "start"], ["notation", ""]]);
      steps().forEach((st, i) => {
        const kind = st.proof.graph.kind;
        add(i + 1, [["n", String(i + 1)], ["rating", st.rating.toFixed(1)], ["technique", st.technique],
          ["notation", st.notation]], CHAIN_KINDS.has(kind) && st.proof.edges.length ? "chain" : "");
      });
      add(lastIndex(), [["n", ""], ["rating", ""], ["technique", state.data.solve.solved ? "solved" : "stuck"], ["notation", ""]]);
      body.dataset.loaded = state.puzzle + "|" + steps().length;
    }
    for (const tr of body.rows) tr.classList.toggle("selected", +tr.dataset.k === state.sel);
    const row = body.querySelector("tr.selected");
    if (row) row.scrollIntoView({ block: "nearest" });
    $("position").textContent = state.sel === 0 ? "start" : state.sel > steps().length ? "final" : `step ${state.sel} / ${steps().length}`;
    const sv = state.data.solve;
    $("summary").textContent = `${sv.solved ? "Solved" : "Stuck"} in ${sv.steps.length} steps · rating ${sv.rating.toFixed(1)} · ladder ${state.data.ladder}`;
  }

  function select(k) {
    if (!state.data) return;
    k = Math.max(0, Math.min(lastIndex(), k));
    if (k !== state.sel) {
      state.sel = k;
      state.hint = 0;
      resetSim(false);
      state.path = { from: null, to: null, result: null, seq: state.path.seq + 1 };
    }
    render();
  }

  // ---- graded hint -----------------------------------------------------------------------
  function nextStepIndex() { return state.sel + 1; }  // the step after the position shown (1-based)
  function renderHint() {
    const box = $("hint");
    const k = nextStepIndex();
    if (!state.data || state.hint === 0) { box.textContent = ""; return; }
    if (k > steps().length) { box.textContent = "No step left: the path ends here."; return; }
    const extra = state.data.steps[k - 1];
    const parts = [`Next: <b>${esc(extra.title)}</b>`];
    if (state.hint >= 2 && extra.where_text) parts.push(`in <b>${esc(extra.where_text)}</b>`);
    box.innerHTML = parts.join(" ");
  }
  function hintOverlay(overlay) {
    if (state.hint >= 2 && state.tab === "steps") {
      const k = nextStepIndex();
      if (k <= steps().length) overlay.shades.unshift({ cls: "shade-hint", cells: state.data.steps[k - 1].where_cells || [] });
    }
  }
  function nextHint() {
    if (!state.data) return;
    if (state.hint >= 2) { state.hint = 0; select(nextStepIndex()); return; }  // level 3: the conclusion itself
    state.hint += 1;
    render();
  }

  // ---- the simulator -------------------------------------------------------------------------
  function resetSim(keepAsserts) {
    clearInterval(state.sim.timer);
    state.sim.timer = null;
    if (!keepAsserts) state.sim.asserts = new Map();
    state.sim.result = null;
    state.sim.round = 0;
    state.sim.seq += 1;
    $("sim-assert").value = assertText();
    renderSimPanel();
  }
  function assertText() { return [...state.sim.asserts].map(([c, s]) => s + c).join(", "); }
  async function runSim(explain) {
    if (FILE_MODE) return;
    const seq = ++state.sim.seq;
    if (!state.sim.asserts.size) { state.sim.result = null; renderSimPanel(); render(); return; }
    const params = { puzzle: positionText(state.sel), assert: assertText(), depth: String(state.sim.depth) };
    if (explain) params.explain = explain;
    setStatus("propagating…");
    try {
      const { body } = await api("propagate", params);
      if (seq !== state.sim.seq) return;
      const keepRound = state.sim.result !== null && explain;
      state.sim.result = body;
      const max = simMaxRound();
      state.sim.round = keepRound ? Math.min(state.sim.round, max) : Math.min(1, max);
      setStatus("");
    } catch (err) {
      if (seq !== state.sim.seq) return;
      setStatus(err.message, true);
    }
    renderSimPanel();
    render();
  }
  function simMaxRound() {
    const res = state.sim.result;
    return res ? res.rounds.length - 1 : 0;
  }
  function simOverlay(overlay) {
    const res = state.sim.result;
    for (const [cand, sign] of state.sim.asserts) addMark(overlay, sign + cand, ["premise"], { round: 0 });
    if (!res) return;
    if (res.explain) { proofOverlay(overlay, res.explain.proof); return; }
    const upto = state.sim.round;
    for (const row of res.rounds) {
      if (row.round > upto) break;
      for (const lit of row.literals) {
        const classes = row.round === 0 ? ["premise"] : row.round === upto ? ["newest"] : ["older"];
        addMark(overlay, lit, classes, { round: row.round });
      }
    }
    const con = res.contradiction;
    if (con && con.round <= upto) {
      for (const lit of con.literals) addMark(overlay, lit, ["contradiction"], { round: con.round });
      if (con.via) {
        const cells = new Set();
        for (const lit of con.literals) { const cc = parseCand(parseLit(lit).cand); if (cc) cells.add(cc.r * size() + cc.c); }
        overlay.shades.push({ cls: "shade-contra", cells: [...cells] });
      }
    }
  }
  function contradictionText(con) {
    if (con.kind === "empty") return `${con.via}: every candidate OFF`;
    if (con.kind === "two-on") return `${con.via}: two candidates ON`;
    return `${con.literals.join(" and ")}: a candidate both ON and OFF`;
  }
  function simCaption() {
    const res = state.sim.result;
    if (FILE_MODE) return "<b>Simulator</b> · needs the explorer server (<code>linkgraph serve</code>)";
    if (!state.sim.asserts.size) return "<b>Simulator</b> · click a candidate to assert it";
    if (!res) return `<b>Simulator</b> · ${esc(assertText())}`;
    if (res.explain) return `<b>Proof of ${esc(res.explain.target)}</b> from ${esc(res.assert.join(", "))}`;
    const con = res.contradiction;
    const shown = res.rounds.filter((r) => r.round <= state.sim.round).reduce((a, r) => a + r.literals.length, 0);
    let text = `<b>${esc(res.assert.join(", "))}</b> · round ${state.sim.round} of ${simMaxRound()} · ${shown} literals`;
    if (con && con.round <= state.sim.round) text += ` · <span class="contra">contradiction at round ${con.round}</span>`;
    return text;
  }
  function renderSimPanel() {
    const res = state.sim.result;
    const slider = $("sim-round");
    slider.max = String(simMaxRound());
    slider.value = String(state.sim.round);
    $("sim-round-out").textContent = String(state.sim.round);
    const summary = $("sim-summary"), list = $("sim-list");
    list.replaceChildren();
    summary.replaceChildren();
    if (FILE_MODE) { summary.appendChild(html("p", { class: "note" }, "The simulator needs the explorer server: run linkgraph serve.")); return; }
    if (!res) return;
    const con = res.contradiction;
    if (res.explain) {
      summary.appendChild(html("span", {}, `Proof of ${res.explain.target}: ${res.explain.support_size} literals. `));
      const back = html("button", { type: "button", id: "sim-back" }, "Back to the rounds");
      back.addEventListener("click", () => runSim(null));
      summary.appendChild(back);
    } else if (con) {
      const span = html("span", { class: con.round <= state.sim.round ? "contradiction" : "" },
        `Contradiction at round ${con.round}: ${contradictionText(con)}`);
      span.id = "sim-contradiction";
      summary.appendChild(span);
      const why = html("button", { type: "button" }, "explain");
      why.addEventListener("click", () => runSim("contradiction"));
      summary.appendChild(html("span", {}, " "));
      summary.appendChild(why);
    } else {
      summary.appendChild(html("span", {}, `No contradiction: ${res.rounds.reduce((a, r) => a + r.literals.length, 0)} literals in ${simMaxRound()} rounds.`));
    }
    const contra = new Set(con ? con.literals : []);
    for (const row of res.rounds) {
      const div = html("div", { class: "round" + (row.round > state.sim.round ? " later" : ""), "data-round": String(row.round) });
      div.appendChild(html("b", {}, `round ${row.round}`));
      for (const lit of row.literals) {
        const chip = html("span", { class: `lit ${lit[0] === "+" ? "on" : "off"}${contra.has(lit) ? " contra" : ""}` +
          (res.explain && res.explain.target === lit ? " explained" : ""), "data-lit": lit, title: "explain: draw its proof" }, lit);
        chip.addEventListener("click", () => runSim(lit));
        div.appendChild(chip);
      }
      list.appendChild(div);
    }
  }
  function toggleAssert(cand, shift) {
    const now = state.sim.asserts.get(cand);
    if (shift) { if (now === "-") state.sim.asserts.delete(cand); else state.sim.asserts.set(cand, "-"); }
    else if (!now) state.sim.asserts.set(cand, "+");
    else if (now === "+") state.sim.asserts.set(cand, "-");
    else state.sim.asserts.delete(cand);
    $("sim-assert").value = assertText();
    state.sim.result = null;
    runSim(null);
  }
  function setRound(r) {
    state.sim.round = Math.max(0, Math.min(simMaxRound(), r));
    renderSimPanel();
    render();
  }

  // ---- implication path ---------------------------------------------------------------------
  function pathOverlay(overlay) {
    const p = state.path;
    if (p.from) addMark(overlay, p.from, ["premise"]);
    if (p.to) addMark(overlay, p.to, ["conclusion"]);
    if (!p.result || !p.result.length) return;
    p.result.forEach((link, i) => {
      if (i > 0) addMark(overlay, link.from, []);
      overlay.arrows.push({ from: [link.from.slice(1)], to: [link.to.slice(1)], kind: link.kind, family: link.family,
        via: link.via, fromText: link.from, toText: link.to });
    });
    addMark(overlay, p.result[p.result.length - 1].to, ["conclusion"]);
  }
  function pathCaption() {
    const p = state.path;
    if (FILE_MODE) return "<b>Path</b> · needs the explorer server (<code>linkgraph serve</code>)";
    if (!p.from) return "<b>Path</b> · click the first candidate (FROM)";
    if (!p.to) return `<b>Path</b> from <code>${esc(p.from)}</code> · click the second candidate (TO)`;
    if (!p.result) return `<b>Path</b> <code>${esc(p.from)}</code> → <code>${esc(p.to)}</code> …`;
    if (!p.result.length) return `<b>No implication path</b> from <code>${esc(p.from)}</code> to <code>${esc(p.to)}</code>`;
    return `<b>Shortest path</b> <code>${esc(p.from)}</code> → <code>${esc(p.to)}</code>: ${p.result.length} links`;
  }
  async function clickPath(cand) {
    const p = state.path;
    if (!p.from || (p.from && p.to)) {
      state.path = { from: $("path-from-sign").value + cand, to: null, result: null, seq: p.seq + 1 };
    } else {
      p.to = $("path-to-sign").value + cand;
      await runPath();
    }
    renderPathPanel();
    render();
  }
  async function runPath() {
    const p = state.path;
    if (FILE_MODE || !p.from || !p.to) return;
    const seq = ++p.seq;
    setStatus("searching…");
    try {
      const { body } = await api("path", { puzzle: positionText(state.sel), from: p.from, to: p.to });
      if (seq !== state.path.seq) return;
      p.result = body;
      setStatus("");
    } catch (err) {
      if (seq !== state.path.seq) return;
      p.result = null;
      p.to = null;
      setStatus(err.message, true);
    }
  }
  function renderPathPanel() {
    const p = state.path;
    $("path-from").textContent = p.from || "–";
    $("path-to").textContent = p.to || "–";
    const box = $("path-result");
    box.replaceChildren();
    if (FILE_MODE) { box.appendChild(html("p", { class: "note" }, "Paths need the explorer server: run linkgraph serve.")); return; }
    if (!p.result) return;
    if (!p.result.length) { box.appendChild(html("p", {}, "No implication path between them.")); return; }
    const ol = html("ol", { id: "path-links" });
    for (const link of p.result) ol.appendChild(html("li", {}, `${link.from} → ${link.to}  (${link.kind}, ${link.family} ${link.via})`));
    box.appendChild(ol);
  }

  // ---- link counts ---------------------------------------------------------------------------
  async function renderLinks() {
    const box = $("links-result");
    if (!state.data) return;
    const text = positionText(state.sel);
    let counts = state.links.get(text);
    if (!counts && (state.sel <= 1 || text === state.data.solve.start)) counts = state.data.links;
    if (!counts && FILE_MODE) {
      box.replaceChildren(html("p", { class: "note" }, "The file carries the start position's counts only; link counts of later positions need linkgraph serve."));
      return;
    }
    if (!counts) {
      box.replaceChildren(html("p", { class: "note" }, "counting…"));
      try {
        const { body } = await api("links", { puzzle: text });
        state.links.set(text, body);
        if (positionText(state.sel) === text && state.tab === "links") renderLinks();
      } catch (err) { box.replaceChildren(html("p", { class: "note" }, err.message)); }
      return;
    }
    const table = html("table", { id: "links-table" });
    const row = (k, v) => { const tr = html("tr"); tr.appendChild(html("td", {}, k)); tr.appendChild(html("td", { "data-key": k }, v)); table.appendChild(tr); };
    row("candidates", String(counts.candidates));
    row("strong links", String(counts.strong));
    row("weak links", String(counts.weak));
    row("group nodes", String(counts.groups));
    row("ALS nodes", String(counts.als));
    row("density", String(counts.density));
    row("edges", Object.entries(counts.edges).map(([k, v]) => `${k} ${v}`).join(", "));
    const d = counts.degree;
    row("degree", `min ${d.min} · max ${d.max} · mean ${d.mean} · median ${d.median}`);
    const comps = counts.strong_components;
    row("strong-link components", `${comps.length}: sizes ${comps.slice(0, 24).join(" ")}${comps.length > 24 ? " …" : ""}`);
    box.replaceChildren(html("p", { class: "note" }, state.sel === 0 ? "Start position" : `Position before step ${Math.min(state.sel, steps().length + 1)}`), table);
  }

  // ---- loading ---------------------------------------------------------------------------------
  function setData(data, puzzleText, ladder) {
    state.data = data;
    state.puzzle = puzzleText;
    state.ladder = ladder;
    state.sel = 0;
    state.hint = 0;
    state.links = new Map();
    state.path = { from: null, to: null, result: null, seq: state.path.seq + 1 };
    resetSim(false);
    // open on the first chain or net step, where there is one to see
    render();
  }
  async function load(puzzleText, ladder) {
    if (FILE_MODE) return false;
    setStatus("solving…");
    $("load-button").disabled = true;
    try {
      const { body } = await api("explore", { puzzle: puzzleText, ladder });
      setData(body, puzzleText, ladder);
      const sv = body.solve;
      setStatus(`${sv.solved ? "solved" : "stuck"}: ${sv.steps.length} steps, rating ${sv.rating.toFixed(1)}`);
      return true;
    } catch (err) {
      setStatus(err.message, true);
      return false;
    } finally {
      $("load-button").disabled = false;
    }
  }

  function setTab(tab) {
    state.tab = tab;
    for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("active", b.dataset.tab === tab);
    for (const t of ["steps", "sim", "path", "links"]) $("tab-" + t).hidden = t !== tab;
    renderSimPanel();
    renderPathPanel();
    render();
  }

  function init() {
    const ladderSelect = $("ladder-select");
    for (const name of CONFIG.ladders || []) ladderSelect.appendChild(html("option", { value: name }, name));
    const sampleSelect = $("sample-select");
    (CONFIG.samples || []).forEach((s, i) => sampleSelect.appendChild(html("option", { value: String(i) }, s.name)));
    sampleSelect.addEventListener("change", () => {
      const s = CONFIG.samples[+sampleSelect.value];
      if (!s) return;
      $("puzzle-input").value = s.puzzle;
      ladderSelect.value = s.ladder;
      load(s.puzzle, s.ladder);
    });
    $("load-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = $("puzzle-input").value.trim();
      if (!text) { setStatus("paste a puzzle first", true); return; }
      load(text, ladderSelect.value);
    });
    for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => setTab(b.dataset.tab));
    $("prev-step").addEventListener("click", () => select(state.sel - 1));
    $("next-step").addEventListener("click", () => select(state.sel + 1));
    $("hint-button").addEventListener("click", nextHint);
    $("sim-depth").addEventListener("change", () => { state.sim.depth = +$("sim-depth").value; state.sim.result = null; runSim(null); });
    $("sim-clear").addEventListener("click", () => { resetSim(false); render(); });
    $("sim-apply").addEventListener("click", () => {
      const items = $("sim-assert").value.split(/[\s,]+/).filter((t) => t);
      state.sim.asserts = new Map(items.map((t) => (t[0] === "+" || t[0] === "-") ? [t.slice(1), t[0]] : [t, "+"]));
      state.sim.result = null;
      runSim(null);
    });
    $("sim-assert").addEventListener("keydown", (ev) => { if (ev.key === "Enter") $("sim-apply").click(); });
    $("sim-round").addEventListener("input", () => setRound(+$("sim-round").value));
    $("sim-play").addEventListener("click", () => {
      clearInterval(state.sim.timer);
      if (!state.sim.result) return;
      if (state.sim.round >= simMaxRound()) setRound(0);
      state.sim.timer = setInterval(() => {
        if (state.sim.round >= simMaxRound()) { clearInterval(state.sim.timer); state.sim.timer = null; return; }
        setRound(state.sim.round + 1);
      }, 700);
    });
    $("path-from-sign").addEventListener("change", () => {
      if (state.path.from) { state.path.from = $("path-from-sign").value + state.path.from.slice(1); state.path.result = null; runPath().then(() => { renderPathPanel(); render(); }); }
    });
    $("path-to-sign").addEventListener("change", () => {
      if (state.path.to) { state.path.to = $("path-to-sign").value + state.path.to.slice(1); state.path.result = null; runPath().then(() => { renderPathPanel(); render(); }); }
    });
    $("board").addEventListener("click", (ev) => {
      const target = ev.target.closest("[data-cand]");
      if (!target || !state.data) return;
      const cand = target.getAttribute("data-cand");
      if (state.tab === "sim" && !FILE_MODE) toggleAssert(cand, ev.shiftKey);
      else if (state.tab === "path" && !FILE_MODE) clickPath(cand);
    });
    document.addEventListener("keydown", (ev) => {
      const tag = (ev.target.tagName || "").toLowerCase();
      if (tag === "textarea" || tag === "select" || (tag === "input" && ev.target.type !== "range")) return;
      if (tag === "input") return;  // the round slider moves with the keys itself
      if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
      const forward = ev.key === "ArrowRight" || ev.key === "ArrowDown";
      const back = ev.key === "ArrowLeft" || ev.key === "ArrowUp";
      if (!forward && !back && ev.key !== "Home" && ev.key !== "End") return;
      ev.preventDefault();
      if (state.tab === "sim" && state.sim.result && (forward || back)) { setRound(state.sim.round + (forward ? 1 : -1)); return; }
      if (ev.key === "Home") select(0);
      else if (ev.key === "End") select(lastIndex());
      else select(state.sel + (forward ? 1 : -1));
    });
    if (FILE_MODE) {
      $("load-form").hidden = true;
      const sv = CONFIG.data.solve;
      setData(CONFIG.data, sv.start, CONFIG.data.ladder);
      setStatus(`saved solve: ${sv.solved ? "solved" : "stuck"}, ${sv.steps.length} steps, rating ${sv.rating.toFixed(1)} (offline)`);
      return;
    }
    window.addEventListener("hashchange", () => showAddress(readAddress()));
    const address = readAddress();
    if (address.puzzle) { showAddress(address); return; }  // a shared link
    const first = CONFIG.initial ? { puzzle: CONFIG.initial, ladder: "default" } : CONFIG.samples[0];
    $("puzzle-input").value = first.puzzle;
    ladderSelect.value = first.ladder;
    load(first.puzzle, first.ladder);
  }

  window.linkgraphExplorer = { state, select, setTab, load, setRound };
  init();
})();
