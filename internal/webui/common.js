// The helpers every page of the admin console and the spectator page
// shares, in one file (both serve it as /common.js): each page loads it
// first, with defer, so its own script finds them. Names and chat are
// attacker-controlled: pages set textContent only (el), never HTML.
"use strict";

const $ = (id) => document.getElementById(id);

// el makes an element with its text (as text) and its class.
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

// cut is a name that ends in an ellipsis when it is long (the whole name
// is its tooltip), so the score columns stay in view.
function cut(name, cls) {
  const e = el("span", name, "cut" + (cls ? " " + cls : ""));
  e.title = name;
  return e;
}

// The console's pages: the admin token, kept in the browser.
let token = localStorage.getItem("bcserver-token") || "";

// loggedOut are run when the page asks for the token again (the console
// stops its event stream).
const loggedOut = [];

// showLogin hides the page (its <main> sections) and asks for the token,
// saying msg.
function showLogin(msg) {
  for (const m of document.querySelectorAll("main")) m.hidden = true;
  $("login").hidden = false;
  $("login-error").textContent = msg || "";
  for (const f of loggedOut) f();
}

// onToken wires the login form: the token typed is kept and start runs.
function onToken(start) {
  $("login-form").addEventListener("submit", (e) => {
    e.preventDefault();
    token = $("token").value.trim();
    localStorage.setItem("bcserver-token", token);
    start();
  });
}

// request calls the admin API with the token (body, if given, as JSON)
// and returns the answer's JSON. An error answer throws an Error with the
// API's message and the status; a refused token asks for another and
// throws Error("unauthorized").
async function request(method, url, body) {
  const opts = { method, headers: { Authorization: "Bearer " + token } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(url, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (r.status === 401) { showLogin("The token was refused."); throw new Error("unauthorized"); }
  if (!r.ok) {
    const err = new Error((data && data.error) || r.statusText);
    err.status = r.status;
    throw err;
  }
  return data;
}
