// arena serve's page: hash routes #/ (runs), #/run/ID, #/game/ID/N. It polls
// the JSON API every two seconds while a run is shown.
"use strict";
const $ = (s) => document.querySelector(s);
const esc = (s) => String(s ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
const num = (x, d = 1) => (x === null || x === undefined || !isFinite(x) ? "-" : Number(x).toFixed(d));
// Unbounded ends and undefined values are null in the JSON.
const signed = (x, d = 1) => (x === null || x === undefined ? "unbounded" : !isFinite(x) ? (x > 0 ? "+∞" : "−∞") : (x >= 0 ? "+" : "") + Number(x).toFixed(d));
let timer = null;

async function get(url) {
  const r = await fetch(url, { cache: "no-store" });
  if (!r.ok) throw new Error(url + ": " + r.status + " " + (await r.text()));
  return r.json();
}

function route() {
  clearTimeout(timer);
  const h = decodeURIComponent(location.hash.slice(1));
  let m;
  if ((m = h.match(/^\/game\/(.*)\/(\d+)$/))) return showGame(m[1], +m[2]);
  if ((m = h.match(/^\/run\/(.*)$/))) return poll(() => showRun(m[1]));
  return poll(showRuns);
}

// poll calls f now and every two seconds until the route changes.
async function poll(f) {
  const at = location.hash;
  try { await f(); $("#updated").textContent = "updated " + new Date().toLocaleTimeString(); }
  catch (e) { $("#updated").textContent = String(e); }
  if (location.hash === at) timer = setTimeout(() => poll(f), 2000);
}

async function showRuns() {
  const runs = await get("api/runs");
  $("#where").textContent = "runs";
  $("#main").innerHTML = `<h2>Runs</h2><table id="runs"><tr><th>Run</th><th>Status</th><th>Games</th><th></th><th>Started</th></tr>` +
    runs.map((r) => `<tr class="link" data-id="${esc(r.id)}"><td>${esc(r.name)}<br><small>${esc(r.id.split("|").join(", "))}</small></td>
      <td class="status-${r.status}">${r.status}</td><td>${r.played}/${r.planned}</td>
      <td><span class="bar"><span style="width:${r.planned ? (100 * r.played) / r.planned : 0}%"></span></span></td><td>${esc(r.started)}</td></tr>`).join("") +
    `</table>`;
  for (const tr of document.querySelectorAll("#runs tr.link")) tr.onclick = () => (location.hash = "#/run/" + encodeURIComponent(tr.dataset.id));
}

function interval(lo, hi) { return `[${signed(lo)}, ${signed(hi)}]`; }

async function showRun(id) {
  const v = await get("api/run?id=" + encodeURIComponent(id));
  const s = v.summary;
  $("#where").textContent = "› " + s.name;
  let h = `<h2>${esc(s.name)} <small class="status-${v.run.status}">${v.run.status}</small></h2>
    <p id="progress">${s.games_played} of ${s.games_planned} games · ${esc(s.format)} · judge ${s.judge.enabled ? "depth " + s.judge.depth : "off"}</p>`;
  h += `<h2>Standings</h2><table id="standings"><tr><th>Engine</th><th>Games</th><th>W</th><th>D</th><th>L</th><th>Points</th><th>Score %</th><th>ACPL</th><th>Accuracy</th></tr>` +
    [...s.engines].sort((a, b) => b.points - a.points).map((e) => `<tr><td>${esc(e.name)}</td><td>${e.games}</td><td>${e.wins}</td><td>${e.draws}</td><td>${e.losses}</td>
      <td>${e.points}</td><td>${num(e.score_pct)}</td><td>${num(e.acpl)}</td><td>${num(e.accuracy)}</td></tr>`).join("") + `</table>`;
  if (s.pairs && s.pairs.length) {
    h += `<h2>Elo (95% interval)</h2><table id="pairs"><tr><th>Pairing</th><th>W-D-L</th><th>Elo</th><th>95%</th><th>LOS</th><th>Pentanomial LL LD DD WD WW</th><th>Elo from pairs</th></tr>` +
      s.pairs.map((p) => `<tr><td>${esc(p.a)} vs ${esc(p.b)}</td><td>${p.elo.wins}-${p.elo.draws}-${p.elo.losses}</td><td>${signed(p.elo.elo)}</td>
        <td>${interval(p.elo.elo_low, p.elo.elo_high)}</td><td>${num(100 * p.elo.los)}%</td>
        <td>${p.penta ? [p.penta.counts.ll, p.penta.counts.ld, p.penta.counts.dd, p.penta.counts.wd, p.penta.counts.ww].join(" ") : "-"}</td>
        <td>${p.penta ? signed(p.penta.elo) + " " + interval(p.penta.elo_low, p.penta.elo_high) : "-"}</td></tr>`).join("") + `</table>`;
  }
  if (s.ratings && s.engines.length > 2) {
    h += `<h2>Ratings (anchor ${esc(s.ratings.anchor)} = 0)</h2><table id="ratings"><tr><th>Engine</th><th>Elo</th><th>95%</th></tr>` +
      [...s.ratings.players].sort((a, b) => b.elo - a.elo).map((r) => `<tr><td>${esc(r.name)}</td><td>${signed(r.elo)}</td><td>${r.name === s.ratings.anchor ? "-" : interval(r.elo_low, r.elo_high)}</td></tr>`).join("") + `</table>`;
  }
  if (s.sprt) h += `<h2>SPRT ${esc(s.sprt.status)}</h2>` + sprtChart(s);
  if (s.crosstable && s.engines.length > 2) {
    const c = s.crosstable;
    h += `<h2>Crosstable</h2><table id="crosstable"><tr><th></th>${c.engines.map((e) => `<th>${esc(e)}</th>`).join("")}<th>Points</th></tr>` +
      c.rows.map((r) => `<tr><td>${esc(r.engine)}</td>${r.cells.map((x) => `<td>${x ? `${x.points}/${x.games}` : "·"}</td>`).join("")}<td>${r.points}/${r.games}</td></tr>`).join("") + `</table>`;
  }
  h += `<h2>Per engine (mean over games, 95% interval)</h2><div class="grid">` +
    [["acpl", "ACPL"], ["time_s", "time per move (s)"], ["nodes", "nodes per move"], ["ram_mb", "peak RAM (MB)"]].map(([k, t]) => barChart(t, s.engines.map((e) => [e.name, (v.spread[e.name] || {})[k]]))).join("") + `</div>`;
  h += `<h2>Games</h2><table id="games"><tr><th>#</th><th>White</th><th>Black</th><th>Result</th><th>Termination</th><th>Plies</th><th>ACPL W/B</th></tr>` +
    [...(s.games || [])].reverse().map((g) => `<tr class="link" data-n="${g.game}"><td>${g.game}</td><td>${esc(g.white)}</td><td>${esc(g.black)}</td><td>${g.result}</td>
      <td>${esc(g.reason)}</td><td>${g.plies}</td><td>${num(g.white_acpl, 0)}/${num(g.black_acpl, 0)}</td></tr>`).join("") + `</table>`;
  $("#main").innerHTML = h;
  for (const tr of document.querySelectorAll("#games tr.link")) tr.onclick = () => (location.hash = "#/game/" + encodeURIComponent(id) + "/" + tr.dataset.n);
}

// sprtChart draws the LLR after each game with the two bounds.
function sprtChart(s) {
  const pts = (s.games || []).map((g, i) => [i + 1, g.llr]).filter((p) => p[1] !== null && p[1] !== undefined);
  const W = 480, H = 180, lo = s.sprt.lower, hi = s.sprt.upper, n = Math.max(s.games_planned, 1);
  const ymin = Math.min(lo, ...pts.map((p) => p[1])) * 1.1, ymax = Math.max(hi, ...pts.map((p) => p[1])) * 1.1;
  const x = (i) => 30 + ((W - 40) * i) / n, y = (v) => 10 + ((H - 30) * (ymax - v)) / (ymax - ymin);
  return `<svg id="sprt" width="${W}" height="${H}" style="background:#fff">
    <line x1="30" x2="${W - 10}" y1="${y(hi)}" y2="${y(hi)}" stroke="#2e7d32" stroke-dasharray="4"/><text x="32" y="${y(hi) - 3}">H1 ${num(hi, 2)}</text>
    <line x1="30" x2="${W - 10}" y1="${y(lo)}" y2="${y(lo)}" stroke="#c62828" stroke-dasharray="4"/><text x="32" y="${y(lo) + 12}">H0 ${num(lo, 2)}</text>
    <line x1="30" x2="${W - 10}" y1="${y(0)}" y2="${y(0)}" stroke="#999"/>
    <polyline fill="none" stroke="#1565c0" stroke-width="2" points="${pts.map((p) => x(p[0]) + "," + y(p[1])).join(" ")}"/>
    <text x="${W - 80}" y="${H - 4}">games (${pts.length})</text></svg>`;
}

// barChart draws one bar per engine with its 95% interval as a whisker.
function barChart(title, rows) {
  const W = 300, row = 22, H = 20 + row * rows.length;
  const top = Math.max(...rows.map(([, st]) => (st ? st.high : 0)), 1e-9);
  const x = (v) => 110 + ((W - 120) * v) / top;
  return `<svg class="bars" width="${W}" height="${H}" style="background:#fff"><text x="4" y="13" font-weight="bold">${esc(title)}</text>` +
    rows.map(([name, st], i) => {
      const yy = 20 + i * row;
      if (!st || !st.n) return `<text x="4" y="${yy + 14}">${esc(name.slice(0, 16))}</text><text x="112" y="${yy + 14}">-</text>`;
      return `<text x="4" y="${yy + 14}">${esc(name.slice(0, 16))}</text><rect x="110" y="${yy + 4}" width="${x(st.mean) - 110}" height="12" fill="#90caf9"/>
        <line x1="${x(st.low)}" x2="${x(st.high)}" y1="${yy + 10}" y2="${yy + 10}" stroke="#0d47a1"/>
        <line x1="${x(st.low)}" x2="${x(st.low)}" y1="${yy + 6}" y2="${yy + 14}" stroke="#0d47a1"/><line x1="${x(st.high)}" x2="${x(st.high)}" y1="${yy + 6}" y2="${yy + 14}" stroke="#0d47a1"/>
        <title>${esc(name)}: ${st.mean.toPrecision(4)} [${st.low.toPrecision(4)}, ${st.high.toPrecision(4)}] over ${st.n} games</title>`;
    }).join("") + `</svg>`;
}

const glyph = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };

function board(fen) {
  const rows = fen.split(" ")[0].split("/");
  let h = `<div class="board" id="board">`;
  rows.forEach((r, i) => {
    let f = 0;
    for (const c of r) {
      if (/\d/.test(c)) for (let k = 0; k < +c; k++, f++) h += `<div class="sq ${(i + f) % 2 ? "dark" : "light"}"></div>`;
      else h += `<div class="sq ${(i + f++) % 2 ? "dark" : "light"}">${glyph[c]}</div>`;
    }
  });
  return h + `</div>`;
}

// evalChart draws the judge's evaluation as lichess does: White's winning
// chances, 2/(1+exp(-0.00368208·cp))-1, filled from the middle line; and
// each move's centipawn loss as a bar below it.
function evalChart(moves, cur) {
  const W = 480, H = 120, n = Math.max(moves.length, 1), x = (i) => (W * i) / n;
  const wc = (cp) => 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
  const pts = moves.map((m, i) => [x(i + 1), H / 2 - (H / 2) * wc(m.eval_cp ?? 0)]);
  const area = `M0,${H / 2} ` + pts.map((p) => `L${p[0]},${p[1]}`).join(" ") + ` L${x(moves.length)},${H / 2} Z`;
  const maxCPL = Math.max(100, ...moves.map((m) => m.cpl ?? 0));
  const bars = moves.map((m, i) => `<rect x="${x(i)}" y="${H + 60 - (60 * (m.cpl ?? 0)) / maxCPL}" width="${Math.max(W / n - 1, 1)}" height="${(60 * (m.cpl ?? 0)) / maxCPL}" fill="${m.side === "white" ? "#bbb" : "#333"}"/>`).join("");
  return `<svg id="evalchart" width="${W}" height="${H + 75}" style="background:#fff">
    <rect width="${W}" height="${H}" fill="#444"/><path d="${area}" fill="#fff"/><line x1="0" x2="${W}" y1="${H / 2}" y2="${H / 2}" stroke="#d85000" stroke-width="0.5"/>
    <line x1="${x(cur)}" x2="${x(cur)}" y1="0" y2="${H}" stroke="#d85000"/>${bars}
    <text x="4" y="${H + 12}">centipawn loss per move (max ${maxCPL})</text></svg>`;
}

async function showGame(id, n) {
  const v = await get("api/game?id=" + encodeURIComponent(id) + "&n=" + n);
  const g = v.game;
  $("#where").innerHTML = `› <a href="#/run/${encodeURIComponent(id)}" style="color:#fff">run</a> › game ${n}`;
  let cur = v.fens.length - 1;
  const draw = () => {
    $("#main").innerHTML = `<h2 id="gametitle">Game ${g.game}: ${esc(g.white)} vs ${esc(g.black)} ${g.result} (${esc(g.reason)})</h2>
      <div class="grid">${board(v.fens[cur])}<div><div id="moves">` +
      g.moves.map((m, i) => `${i % 2 === 0 ? `<b>${Math.floor(i / 2) + 1}.</b> ` : ""}<span data-i="${i + 1}" class="${i + 1 === cur ? "cur " : ""}${m.class || ""}"
        title="${esc(m.engine)}: ${num(m.time_s, 2)}s, ${m.nodes} nodes, depth ${m.depth}${m.cpl !== undefined ? ", CPL " + m.cpl : ""}">${esc(m.san)}</span>`).join(" ") +
      `</div></div>${evalChart(g.moves, cur)}</div>`;
    for (const sp of document.querySelectorAll("#moves span")) sp.onclick = () => { cur = +sp.dataset.i; draw(); };
  };
  draw();
  document.onkeydown = (e) => {
    if (!location.hash.startsWith("#/game/")) return;
    if (e.key === "ArrowLeft" && cur > 0) { cur--; draw(); }
    if (e.key === "ArrowRight" && cur < v.fens.length - 1) { cur++; draw(); }
  };
}

window.addEventListener("hashchange", route);
route();
