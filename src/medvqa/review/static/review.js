// medvqa review: image zoom, window/level for greyscale images, region boxes, keyboard shortcuts.
// No framework and no build step; everything the server renders works without this file.
"use strict";

function setupViewer(fig) {
  const canvas = fig.querySelector("canvas");
  const ctx = canvas.getContext("2d");
  const img = new Image();
  const boxes = JSON.parse(fig.dataset.boxes || "[]");
  const showBoxes = fig.querySelector(".showboxes");
  const win = fig.querySelector(".win");
  const lev = fig.querySelector(".lev");
  const zoomLabel = fig.querySelector(".zoomlevel");
  let zoom = 1;
  let base = null; // original pixels
  let grey = false;

  function isGrey(data) {
    for (let i = 0; i < data.length; i += 4 * 97) {
      if (data[i] !== data[i + 1] || data[i] !== data[i + 2]) return false;
    }
    return true;
  }

  function draw() {
    if (!base) return;
    const out = ctx.createImageData(base.width, base.height);
    if (grey) {
      const w = Number(win.value), l = Number(lev.value);
      const lo = l - w / 2;
      for (let i = 0; i < base.data.length; i += 4) {
        let v = ((base.data[i] - lo) / w) * 255;
        v = v < 0 ? 0 : v > 255 ? 255 : v;
        out.data[i] = out.data[i + 1] = out.data[i + 2] = v;
        out.data[i + 3] = 255;
      }
    } else {
      out.data.set(base.data);
    }
    ctx.putImageData(out, 0, 0);
    if (!showBoxes || showBoxes.checked) {
      ctx.lineWidth = Math.max(2, base.width / 200);
      ctx.font = `${Math.max(12, base.width / 30)}px sans-serif`;
      for (const b of boxes) {
        const [x0, y0, x1, y1] = b.box;
        ctx.strokeStyle = "#ffcc00";
        ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
        ctx.fillStyle = "#ffcc00";
        ctx.fillText(String(b.id), x0 + 3, y0 + Math.max(12, base.width / 30));
      }
    }
  }

  function applyZoom() {
    canvas.style.width = `${Math.round(base.width * zoom)}px`;
    zoomLabel.textContent = `${Math.round(zoom * 100)}%`;
  }

  function fit() {
    const avail = fig.querySelector(".stage").clientWidth || base.width;
    zoom = Math.min(4, avail / base.width) || 1; // small tiles are enlarged, large images shrunk
    applyZoom();
  }

  img.onload = () => {
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    ctx.drawImage(img, 0, 0);
    base = ctx.getImageData(0, 0, canvas.width, canvas.height);
    grey = isGrey(base.data);
    if (grey) fig.querySelector(".wl").hidden = false;
    draw();
    fit();
    fig.dataset.ready = grey ? "grey" : "colour";
  };
  img.src = fig.dataset.src;

  fig.zoomBy = (f) => { if (base) { zoom = Math.min(16, Math.max(0.1, zoom * f)); applyZoom(); } };
  fig.fit = () => { if (base) fit(); };
  fig.querySelector("[data-zoom=in]").onclick = () => fig.zoomBy(1.25);
  fig.querySelector("[data-zoom=out]").onclick = () => fig.zoomBy(0.8);
  fig.querySelector("[data-zoom=reset]").onclick = () => fig.fit();
  canvas.addEventListener("wheel", (e) => { e.preventDefault(); fig.zoomBy(e.deltaY < 0 ? 1.1 : 0.9); },
                          { passive: false });
  if (showBoxes) showBoxes.onchange = draw;
  win.oninput = draw;
  lev.oninput = draw;
}

function typing(e) {
  const t = e.target;
  return t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT");
}

function setupKeys() {
  if (!document.querySelector("[data-item-page]")) return;
  document.addEventListener("keydown", (e) => {
    if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key.toLowerCase();
    const fig = document.querySelector(".viewer");
    if (k === "a") {
      document.getElementById("accept-form").requestSubmit();
    } else if (k === "r") {
      const reason = document.getElementById("reason");
      if (reason.value) document.getElementById("reject-form").requestSubmit();
      else reason.focus();
    } else if (k === "e") {
      const box = document.getElementById("edit-box");
      box.open = true;
      document.getElementById("edit-question").focus();
      e.preventDefault();
    } else if (k === "n") {
      window.location.href = document.getElementById("skip").href;
    } else if (fig && (k === "+" || k === "=")) {
      fig.zoomBy(1.25);
    } else if (fig && k === "-") {
      fig.zoomBy(0.8);
    } else if (fig && k === "0") {
      fig.fit();
    }
  });
}

// The reader audit: an option's letter picks it (ticks it on a multi-answer item, Enter sends
// the set), ? no answer committed, ! refusal; on the page after, N goes to the next response.
function setupReading() {
  const form = document.querySelector("[data-reading-page] .read-form");
  const reveal = document.querySelector("[data-reveal-page]");
  if (!form && !reveal) return;
  document.addEventListener("keydown", (e) => {
    if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (reveal) {
      if (e.key.toLowerCase() === "n" || e.key === "Enter" || e.key === "ArrowRight") {
        window.location.href = document.getElementById("next-reading").href;
      }
      return;
    }
    const key = e.key === "Enter" ? "enter" : e.key.toLowerCase();
    const target = form.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (!target) return;
    e.preventDefault();
    if (target.type === "checkbox") target.checked = !target.checked;
    else form.requestSubmit(target);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll(".viewer").forEach(setupViewer);
  setupKeys();
  setupReading();
});
