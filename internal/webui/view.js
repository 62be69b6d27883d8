// bcserver tactical view: draws one frame of a match (ships with their
// names, classes, hull and shields, weapon fire, explosions) from above
// and from the side. Shared by the replay viewer and the spectator page.
// Names are attacker-controlled text: they are only ever drawn with
// fillText on the canvas, never put into HTML.
"use strict";

const viewColors = { team: ["#5090f0", "#e05050", "#50c070", "#c070e0"], none: "#f0a030", host: "#c0c0c0", dead: "#555" };
const fireColors = { phaser: "#ffb040", pulse: "#60ff90", torpedo: "#ff5050", tractor: "#80c0ff", unknown: "#ffffff" };

class TacticalView {
  constructor(top, side) {
    this.top = top;
    this.side = side;
    this.span = 200;
    this.center = [0, 0, 0];
  }

  shipColor(s) {
    if (!s.alive) return viewColors.dead;
    if (s.team >= 0) return viewColors.team[s.team % viewColors.team.length];
    return s.host ? viewColors.host : viewColors.none;
  }

  // fit moves the camera to the ships (or the followed one), smoothly.
  fit(ships, follow) {
    let c = [0, 0, 0], want = 150;
    const f = follow ? ships.find((s) => s.id === follow) : null;
    if (f) {
      c = f.pos;
      for (const s of ships) want = Math.max(want, Math.min(600, Math.hypot(s.pos[0] - c[0], s.pos[1] - c[1], s.pos[2] - c[2]) * 1.2));
    } else if (ships.length > 0) {
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      for (const s of ships) for (let i = 0; i < 3; i++) { lo[i] = Math.min(lo[i], s.pos[i]); hi[i] = Math.max(hi[i], s.pos[i]); }
      c = [0, 1, 2].map((i) => (lo[i] + hi[i]) / 2);
      want = Math.max(want, (hi[0] - lo[0]) * 0.6, (hi[1] - lo[1]) * 0.6, (hi[2] - lo[2]) * 0.6);
    }
    this.center = this.center.map((v, i) => v + (c[i] - v) * 0.25);
    this.span += (want - this.span) * 0.15;
  }

  draw(frame, effects, follow) {
    const ships = frame ? frame.ships : [];
    this.fit(ships.filter((s) => s.alive), follow);
    this.drawPlane(this.top, ships, effects, 0, 1, "top (x → y ↑)", follow);
    if (this.side) this.drawPlane(this.side, ships, effects, 0, 2, "side (x → z ↑)", follow);
  }

  drawPlane(c, ships, effects, ax, ay, label, follow) {
    const g = c.getContext("2d"), w = c.width, h = c.height;
    g.clearRect(0, 0, w, h);
    const scale = (Math.min(w, h) / 2 - 24) / this.span;
    const px = (p) => [w / 2 + (p[ax] - this.center[ax]) * scale, h / 2 - (p[ay] - this.center[ay]) * scale];
    g.strokeStyle = "#1c2633";
    g.lineWidth = 1;
    for (let i = 1; i < 4; i++) { g.beginPath(); g.arc(w / 2, h / 2, (Math.min(w, h) / 2 - 24) * i / 3, 0, 2 * Math.PI); g.stroke(); }
    g.fillStyle = "#566478";
    g.font = "11px system-ui";
    g.fillText(label + " · range " + Math.round(this.span), 8, h - 8);
    for (const e of effects || []) {
      const a = e.from ? px(e.from) : null, b = e.to ? px(e.to) : null;
      const fade = Math.max(0, 1 - e.age / e.life);
      g.globalAlpha = fade;
      if (e.kind === "fire" && a && b) {
        g.strokeStyle = fireColors[e.weapon] || fireColors.unknown;
        g.lineWidth = e.weapon === "phaser" ? 2 : 1;
        if (e.weapon === "torpedo" || e.weapon === "pulse") {
          const k = Math.min(1, e.age / e.life);
          const x = a[0] + (b[0] - a[0]) * k, y = a[1] + (b[1] - a[1]) * k;
          g.fillStyle = g.strokeStyle;
          g.beginPath(); g.arc(x, y, 3, 0, 2 * Math.PI); g.fill();
        } else {
          g.beginPath(); g.moveTo(a[0], a[1]); g.lineTo(b[0], b[1]); g.stroke();
        }
      } else if (e.kind === "boom" && b) {
        g.strokeStyle = "#ffd060";
        g.lineWidth = 2;
        g.beginPath(); g.arc(b[0], b[1], 6 + 30 * (1 - fade), 0, 2 * Math.PI); g.stroke();
      }
      g.globalAlpha = 1;
    }
    for (const s of ships) {
      const [x, y] = px(s.pos);
      const col = this.shipColor(s);
      // A wedge pointing along the ship's nose.
      const fx = s.fwd[ax], fy = -s.fwd[ay], fl = Math.hypot(fx, fy) || 1;
      const ux = fx / fl, uy = fy / fl;
      g.fillStyle = col;
      g.beginPath();
      g.moveTo(x + ux * 9, y + uy * 9);
      g.lineTo(x - ux * 6 - uy * 5, y - uy * 6 + ux * 5);
      g.lineTo(x - ux * 6 + uy * 5, y - uy * 6 - ux * 5);
      g.closePath();
      g.fill();
      if (s.id === follow) { g.strokeStyle = "#fff"; g.beginPath(); g.arc(x, y, 13, 0, 2 * Math.PI); g.stroke(); }
      if (!s.alive) continue;
      const bar = (v, dy, good) => {
        g.fillStyle = "#333"; g.fillRect(x - 12, y + dy, 24, 3);
        g.fillStyle = good ? "#5af" : (v > 0.5 ? "#4c4" : v > 0.25 ? "#cc4" : "#c44");
        g.fillRect(x - 12, y + dy, 24 * Math.max(0, Math.min(1, v)), 3);
      };
      bar(s.hull, 10, false);
      const sh = s.shields.reduce((a, b) => a + b, 0) / 6;
      bar(sh, 14, true);
      g.fillStyle = "#d8e0ea";
      const name = (s.owner || s.name || "ship " + s.id) + (s.class ? " (" + s.class + ")" : "");
      const lw = g.measureText(name).width;
      g.fillText(name, x + 10 + lw > w - 4 ? x - 10 - lw : x + 10, y - 6);
    }
  }
}

// effectsAt turns a window's events around time t into things to draw.
function effectsAt(events, frame, t) {
  const out = [];
  if (!frame) return out;
  const pos = new Map(frame.ships.map((s) => [s.id, s.pos]));
  for (const e of events) {
    if (e.t > t) break;
    const age = t - e.t;
    if (e.kind === "fire" && age < 600 && pos.has(e.object)) {
      out.push({ kind: "fire", weapon: e.weapon_kind, from: pos.get(e.object), to: pos.get(e.target) || null, age, life: 600 });
    } else if ((e.kind === "death" || e.kind === "explosion") && age < 1500) {
      const p = e.kind === "explosion" ? e.pos : pos.get(e.object);
      if (p) out.push({ kind: "boom", to: p, age, life: 1500 });
    }
  }
  return out;
}
