// phasedsl workbench: every answer comes from the server (phasedsl itself); this file only
// sends what is typed and shows what comes back.
"use strict";

const $ = (id) => document.getElementById(id);

async function post(path, body) {
  const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                               body: JSON.stringify(body)});
  const got = await r.json();
  if (!r.ok) throw got;
  return got;
}

function said(e) {
  if (e && e.error) return e.error;
  return String(e);
}

function debounce(fn, ms) {
  let t = null;
  return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); };
}

// ------------------------------------------------------------------ packs
async function loadPacks() {
  const r = await fetch("/api/packs");
  const packs = await r.json();
  for (const p of packs) {
    const sel = p.dice ? $("dice-pack") : p.board ? $("board-pack") : null;
    if (!sel) continue;
    const o = document.createElement("option");
    o.value = p.name; o.textContent = p.name;
    sel.appendChild(o);
  }
  for (const sel of document.querySelectorAll("select.packs")) {
    for (const p of packs.filter((q) => !q.dice)) {
      const o = document.createElement("option");
      o.value = p.name; o.textContent = p.name;
      if (p.name === "original") o.selected = true;
      sel.appendChild(o);
    }
  }
}

// ------------------------------------------------------------------ phrase box
let phraseAsked = 0;
async function showPhrase() {
  const asked = ++phraseAsked;
  const out = $("phrase-out");
  const body = {phrase: $("phrase").value, pack: $("phrase-pack").value};
  try {
    const got = await post("/api/phrase", body);
    if (asked !== phraseAsked) return;
    out.innerHTML = "";
    const c = document.createElement("div");
    c.className = "canonical"; c.id = "canonical"; c.textContent = got.canonical;
    const p = document.createElement("div");
    p.className = "muted"; p.textContent = `${got.plain} (${got.cards_needed} cards)`;
    const d = document.createElement("div");
    d.id = "dealt"; d.textContent = "dealt chance: working it out...";
    out.append(c, p, d);
    post("/api/dealt", body).then((o) => {
      if (asked === phraseAsked)
        d.textContent = `a dealt hand makes it: ${o.describe}` +
          (o.method === "sampled" ? `, ${o.samples.toLocaleString()} hands` : "");
    }, (e) => { if (asked === phraseAsked) d.textContent = said(e); });
  } catch (e) {
    if (asked !== phraseAsked) return;
    out.innerHTML = "";
    const err = document.createElement("div");
    err.className = "error"; err.id = "phrase-error";
    err.textContent = "error: " + said(e);
    out.append(err);
  }
}

// ------------------------------------------------------------------ meld checker
function buildPicker() {
  const colors = ["R", "B", "G", "Y"];
  const picker = $("card-picker");
  for (const c of colors) {
    for (let n = 1; n <= 12; n++) picker.append(cardButton(c + n, c));
  }
  picker.append(cardButton("W", "W"), cardButton("S", "S"));
}

function cardButton(text, color) {
  const b = document.createElement("button");
  b.type = "button"; b.textContent = text; b.className = "card c" + color;
  b.addEventListener("click", () => {
    const f = $("meld-cards");
    f.value = (f.value.trim() + " " + text).trim();
  });
  return b;
}

async function checkMeld() {
  const out = $("meld-out");
  try {
    const got = await post("/api/check", {phrase: $("meld-phrase").value,
                                          cards: $("meld-cards").value});
    out.className = "out " + (got.valid ? "made" : "notmade");
    out.textContent = got.text;
  } catch (e) {
    out.className = "out error";
    out.textContent = "error: " + said(e);
  }
}

// ------------------------------------------------------------------ editor
let lintAsked = 0;
async function lintEditor() {
  const asked = ++lintAsked;
  let got;
  try {
    got = await post("/api/lint", {yaml: $("editor").value});
  } catch (e) {
    got = {ok: false, problems: [{severity: "error", message: said(e)}], worlds: []};
  }
  if (asked !== lintAsked) return;
  const list = $("problems");
  list.innerHTML = "";
  for (const p of got.problems) {
    const li = document.createElement("li");
    li.className = p.severity || "error";
    const where = p.line ? `line ${p.line}` + (p.column ? `, column ${p.column}` : "") : "";
    li.textContent = `${where ? where + ": " : ""}${p.severity || "error"}: ${p.message}`;
    if (p.line) {
      li.dataset.line = p.line;
      li.addEventListener("click", () => selectLine(p.line, p.column || 1));
    }
    list.append(li);
  }
  if (!got.problems.length) {
    const li = document.createElement("li");
    li.className = "ok"; li.textContent = "lint: nothing to say";
    list.append(li);
  }
  const side = $("phases-out");
  side.innerHTML = "";
  for (const w of got.worlds) {
    const h = document.createElement("div");
    h.className = "world"; h.textContent = w.title || w.name;
    side.append(h);
    const ol = document.createElement("ol");
    for (const p of w.phases) {
      const li = document.createElement("li");
      li.textContent = p.canonical;
      if (p.canonical !== p.text) li.title = `written: ${p.text}`;
      ol.append(li);
    }
    side.append(ol);
  }
}

function selectLine(line, column) {
  const ed = $("editor");
  const lines = ed.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += Math.max(0, column - 1);
  ed.focus();
  ed.setSelectionRange(at, at + 1);
}

// ------------------------------------------------------------------ share (the fragment)
async function packToFragment(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// (the most bytes a link's pack may unpack to: the server's 200,000 characters of a pack, in
// UTF-8 at most; a link made to unpack to gigabytes must not hang the page)
const MOST_SHARED = 800000;

async function fragmentToPack(code) {
  const b64 = code.replace(/-/g, "+").replace(/_/g, "/");
  const parts = [];
  let tooLong = false;
  try {
    const bin = atob(b64 + "===".slice((b64.length + 3) % 4));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    const reader = new Blob([bytes]).stream()
      .pipeThrough(new DecompressionStream("deflate-raw")).getReader();
    for (let size = 0; ;) {
      const {value, done} = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MOST_SHARED) { tooLong = true; reader.cancel(); break; }
      parts.push(value);
    }
  } catch (e) {
    // (Chromium says a bad deflate stream as "Failed to fetch", which reads as a network fault)
    throw new Error("the link is damaged or cut short");
  }
  if (tooLong) throw new Error(`it unpacks to more than ${MOST_SHARED} bytes`);
  return new TextDecoder().decode(await new Blob(parts).arrayBuffer());
}

async function share() {
  const code = await packToFragment($("editor").value);
  const url = `${location.origin}${location.pathname}#pack=${code}`;
  $("share-url").value = url;
  history.replaceState(null, "", `#pack=${code}`);
}

// ------------------------------------------------------------------ balance
let proposedYaml = null;
async function runBalance() {
  const out = $("balance-out"), bar = $("balance-progress");
  $("balance-apply").hidden = true;
  proposedYaml = null;
  out.className = "out"; out.textContent = "playing games...";
  bar.hidden = false; bar.value = 0;
  const r = await fetch("/api/balance", {method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({yaml: $("editor").value, games: Number($("balance-games").value)})});
  if (!r.ok) {
    const e = await r.json();
    bar.hidden = true; out.className = "out error"; out.textContent = "error: " + said(e);
    return;
  }
  const reader = r.body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    buf += dec.decode(value, {stream: true});
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl); buf = buf.slice(nl + 1);
      if (!line.trim()) continue;
      const item = JSON.parse(line);
      if (item.progress) { bar.max = item.progress[1]; bar.value = item.progress[0]; continue; }
      bar.hidden = true;
      if (item.error) { out.className = "out error"; out.textContent = "error: " + item.error; return; }
      out.textContent = item.text;
      proposedYaml = item.proposed_yaml;
      $("balance-apply").hidden = !proposedYaml;
    }
  }
}

function applyProposal() {
  if (!proposedYaml) return;
  $("editor").value = proposedYaml;
  $("balance-apply").hidden = true;
  lintEditor();
}

// ------------------------------------------------------------------ report
async function runReport() {
  const status = $("report-status"), frame = $("report-frame");
  status.textContent = "playing the report's games...";
  try {
    const got = await post("/api/report", {yaml: $("editor").value, games: 20});
    frame.srcdoc = got.html;
    frame.hidden = false; $("report-print").hidden = false;
    status.textContent = "";
  } catch (e) {
    status.textContent = "error: " + said(e);
  }
}

// ------------------------------------------------------------------ play
let gameId = null;
function showGame(s) {
  gameId = s.id;
  $("play-screen").textContent = s.screen + (s.over ? `\n\ngame over: ${s.winner} wins` : "");
  $("play-said").textContent = s.said.join("\n");
  const moves = $("play-moves");
  moves.innerHTML = "";
  for (const m of s.moves) {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = m;
    b.addEventListener("click", () => playMove(m));
    moves.append(b);
  }
}

async function newGame() {
  try {
    showGame(await post("/api/play/new", {pack: $("play-pack").value,
                                          players: Number($("play-players").value)}));
  } catch (e) { $("play-screen").textContent = "error: " + said(e); }
}

async function playMove(m) {
  try { showGame(await post("/api/play/move", {id: gameId, move: m})); }
  catch (e) { $("play-said").textContent = "error: " + said(e); }
}

// ------------------------------------------------------------------ dice and twist
function pct(x) { return (100 * x).toFixed(4) + "%"; }

async function diceTable() {
  const out = $("dice-out");
  out.textContent = "working out the tables (exact; the first time takes a while)...";
  try {
    const got = await post("/api/dice", {pack: $("dice-pack").value});
    const lines = [`${got.pack}: ${got.dice}; ${got.rolls} rolls, the best dice kept (exact)`];
    for (const p of got.phases)
      lines.push(`${String(p.index).padStart(2)}  ${p.phase.padEnd(28)} ${pct(p.decimal)}  (${p.exact})`);
    lines.push(`highest possible score: ${got.highest_score}`);
    out.textContent = lines.join("\n");
  } catch (e) { out.textContent = "error: " + said(e); }
}

async function holdAdvice() {
  const out = $("hold-out");
  try {
    const a = await post("/api/hold", {pack: $("dice-pack").value,
      phase: Number($("hold-phase").value), rolls_left: Number($("hold-left").value),
      faces: $("hold-faces").value});
    out.textContent = `keep ${a.keep.join(" ") || "nothing"}: ${pct(a.decimal)} (${a.chance}) to make ` +
      `phase ${$("hold-phase").value} (${a.phase})`;
  } catch (e) { out.textContent = "error: " + said(e); }
}

async function showBoard() {
  const out = $("board-out");
  try {
    const got = await post("/api/board", {pack: $("board-pack").value});
    out.textContent = got.track.join("\n");
  } catch (e) { out.textContent = "error: " + said(e); }
}

// ------------------------------------------------------------------ start
async function start() {
  await loadPacks();
  buildPicker();
  $("phrase").addEventListener("input", debounce(showPhrase, 250));
  $("phrase-pack").addEventListener("change", showPhrase);
  $("meld-check").addEventListener("click", checkMeld);
  $("editor").addEventListener("input", debounce(lintEditor, 300));
  $("share").addEventListener("click", share);
  $("balance-run").addEventListener("click", runBalance);
  $("balance-apply").addEventListener("click", applyProposal);
  $("report-run").addEventListener("click", runReport);
  $("report-print").addEventListener("click", () => $("report-frame").contentWindow.print());
  $("play-new").addEventListener("click", newGame);
  $("dice-table").addEventListener("click", diceTable);
  $("hold-run").addEventListener("click", holdAdvice);
  $("board-show").addEventListener("click", showBoard);
  $("play-command").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") { playMove(ev.target.value); ev.target.value = ""; }
  });
  const m = location.hash.match(/^#pack=([A-Za-z0-9_-]+)$/);
  if (m) {
    try { $("editor").value = await fragmentToPack(m[1]); }
    catch (e) { $("editor").value = "# the link's pack could not be read: " + said(e); }
  } else {
    const r = await fetch("/api/pack/short-game-5");
    $("editor").value = (await r.json()).yaml;
  }
  document.body.dataset.ready = "yes";
  showPhrase();
  lintEditor();
}

start();
