// fanyi web page: POST /translate with attention, show the translation, draw the heatmap.
"use strict";

const $ = (id) => document.getElementById(id);
const CELL = 28;  // pixels per heatmap cell
const FONT = '13px system-ui, "WenQuanYi Micro Hei", "Noto Sans CJK SC", sans-serif';

// SentencePiece marks a word start with U+2581; show it as nothing unless it stands alone.
function label(piece) {
  const text = piece.replace(/\u2581/g, "");
  return text === "" ? "\u2581" : text;
}

function colour(weight, peak) {  // 0 → white, the matrix's largest weight → deep blue
  const w = Math.max(0, Math.min(1, weight / peak));
  return `rgb(${Math.round(255 - 225 * w)}, ${Math.round(255 - 175 * w)}, ${Math.round(255 - 75 * w)})`;
}

function drawHeatmap(canvas, sources, targets, weights) {
  const ctx = canvas.getContext("2d");
  ctx.font = FONT;
  const width = (labels) => Math.max(0, ...labels.map((l) => ctx.measureText(label(l)).width));
  const left = Math.ceil(width(targets)) + 12;
  const top = Math.ceil(width(sources)) + 12;
  canvas.width = left + CELL * sources.length + 4;
  canvas.height = top + CELL * targets.length + 4;
  ctx.font = FONT;  // resizing the canvas resets its state
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const peak = Math.max(1e-6, ...weights.flat());
  weights.forEach((row, i) => row.forEach((w, j) => {
    ctx.fillStyle = colour(w, peak);
    ctx.fillRect(left + j * CELL, top + i * CELL, CELL - 1, CELL - 1);
  }));
  ctx.fillStyle = "#222";
  ctx.textBaseline = "middle";
  ctx.textAlign = "right";
  targets.forEach((t, i) => ctx.fillText(label(t), left - 6, top + i * CELL + CELL / 2));
  sources.forEach((s, j) => {  // column labels, rotated to read upwards
    ctx.save();
    ctx.translate(left + j * CELL + CELL / 2, top - 6);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = "left";
    ctx.fillText(label(s), 0, 0);
    ctx.restore();
  });
  canvas.dataset.rows = targets.length;
  canvas.dataset.cols = sources.length;
  canvas.onmousemove = (event) => {
    const box = canvas.getBoundingClientRect();
    const x = (event.clientX - box.left) * (canvas.width / box.width) - left;
    const y = (event.clientY - box.top) * (canvas.height / box.height) - top;
    const i = Math.floor(y / CELL), j = Math.floor(x / CELL);
    $("cell").textContent = (i >= 0 && j >= 0 && i < targets.length && j < sources.length)
      ? `${label(targets[i])} → ${label(sources[j])}: ${weights[i][j].toFixed(3)}` : "";
  };
}

async function translate(event) {
  event.preventDefault();
  const text = $("source").value.trim();
  if (!text) return;
  const body = { text: [text], attention: true };
  if (Number($("beam").value)) body.beam = Number($("beam").value);
  if ($("direction").value) body.to = $("direction").value;
  if ($("chinese").value !== "hans") body.chinese_script = $("chinese").value;
  if ($("prefix").value.trim()) body.target_prefix = $("prefix").value.trim();
  $("status").textContent = "translating…";
  $("translate").disabled = true;
  try {
    const response = await fetch("/translate", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) {
      const detail = typeof answer.detail === "string" ? answer.detail : JSON.stringify(answer.detail);
      throw new Error(`${response.status}: ${detail}`);
    }
    const result = answer.translations[0];
    if (result.error) throw new Error(result.error); // this text alone was not translated
    show(result);
    $("status").textContent = "";
  } catch (error) {
    $("status").textContent = `error ${error.message}`;
  } finally {
    $("translate").disabled = false;
  }
}

function show(result) {
  const best = result.candidates[0];
  $("translation").textContent = result.text;
  $("translation").lang = result.to;
  $("score").textContent = `→ ${result.to} · score ${best.score.toFixed(3)} · log P ${best.log_prob.toFixed(3)}`;
  if (best.attention) drawHeatmap($("heatmap"), result.source_tokens, best.tokens, best.attention);
}

// The languages the model translates into, from /health: one "→ language" option each.
async function showTargets() {
  const health = await (await fetch("/health")).json();
  const names = new Intl.DisplayNames(["en"], { type: "language" });
  const name = (code) => { try { return names.of(code); } catch { return code; } };
  for (const code of health.targets) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = `→ ${name(code)}`;
    $("direction").append(option);
  }
  $("languages").textContent = health.targets.map(name).join(" ⇄ ");
  $("beam").value = health.beam;
}

// A document: POST /translate/document, then offer the translated file for download.
function savedName(response, fallback) {  // RFC 6266: filename* (UTF-8) before filename
  const header = response.headers.get("Content-Disposition") || "";
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (utf8) return decodeURIComponent(utf8[1]);
  const plain = /filename="([^"]*)"/i.exec(header);
  return plain ? plain[1] : fallback;
}

async function translateDocument(file) {
  const body = new FormData();
  body.append("file", file, file.name);
  if ($("direction").value) body.append("to", $("direction").value);
  const link = $("download");
  link.hidden = true;
  if (link.href) URL.revokeObjectURL(link.href);
  $("document-status").textContent = `translating ${file.name}…`;
  try {
    const response = await fetch("/translate/document", { method: "POST", body });
    if (!response.ok) {
      const answer = await response.json().catch(() => ({ detail: response.statusText }));
      const detail = typeof answer.detail === "string" ? answer.detail : JSON.stringify(answer.detail);
      throw new Error(`${response.status}: ${detail}`);
    }
    const name = savedName(response, file.name);
    link.href = URL.createObjectURL(await response.blob());
    link.download = name;
    link.textContent = `Download ${name}`;
    link.hidden = false;
    $("document-status").textContent = "";
  } catch (error) {
    $("document-status").textContent = `error ${error.message}`;
  }
}

$("document").addEventListener("change", (event) => {
  const file = event.target.files[0];
  if (file) translateDocument(file);
  event.target.value = "";  // the same file chosen again is translated again
});
$("drop").addEventListener("dragover", (event) => {
  event.preventDefault();
  $("drop").classList.add("over");
});
$("drop").addEventListener("dragleave", () => $("drop").classList.remove("over"));
$("drop").addEventListener("drop", (event) => {
  event.preventDefault();
  $("drop").classList.remove("over");
  const file = event.dataTransfer.files[0];
  if (file) translateDocument(file);
});

$("form").addEventListener("submit", translate);
showTargets();
$("source").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) translate(event);
});
