// Diagrams: each ```mermaid block of a page (and of the editor's preview) is
// drawn by Mermaid inside a sandboxed frame of its own (/diagram), so the page
// keeps its content security policy; Mermaid itself is loaded only by those
// frames, on pages that have a diagram. The block's text stays, folded, as the
// diagram's source; a diagram that does not parse keeps its text and says why.
// Without JavaScript the text shows as code. The drawing follows the light or
// dark scheme as it changes.
(function () {
  'use strict';
  const frames = new Map();
  let count = 0;
  const scheme = window.matchMedia('(prefers-color-scheme: dark)');

  function send(entry) {
    entry.frame.contentWindow.postMessage({ n: entry.n, source: entry.source, dark: scheme.matches }, '*');
  }

  function place(root) {
    const blocks = root.querySelectorAll ? root.querySelectorAll('.prose pre > code.language-mermaid') : [];
    blocks.forEach((code) => {
      const pre = code.parentElement;
      if (pre.dataset.diagram) return;
      count += 1;
      pre.dataset.diagram = String(count);
      const frame = document.createElement('iframe');
      frame.className = 'diagram';
      frame.title = 'Diagram';
      frame.setAttribute('sandbox', 'allow-scripts');
      frame.setAttribute('loading', 'lazy');
      frame.src = '/diagram';
      pre.before(frame);
      frames.set(count, { n: count, frame, pre, source: code.textContent });
    });
  }

  function drawn(entry) {
    const { pre } = entry;
    if (pre.parentElement && pre.parentElement.classList.contains('diagram-source')) return;
    const details = document.createElement('details');
    details.className = 'diagram-source';
    const summary = document.createElement('summary');
    summary.textContent = 'Diagram source';
    pre.before(details);
    details.append(summary, pre);
  }

  function failed(entry, why) {
    entry.frame.remove();
    frames.delete(entry.n);
    const note = document.createElement('p');
    note.className = 'diagram-error';
    note.textContent = `This diagram could not be drawn: ${why}`;
    entry.pre.before(note);
  }

  window.addEventListener('message', (event) => {
    for (const entry of frames.values()) {
      if (event.source !== entry.frame.contentWindow) continue;
      const m = event.data || {};
      if (m.ready) send(entry);
      else if (m.n !== entry.n) return;
      else if (m.ok && typeof m.height === 'number') {
        entry.frame.style.height = `${Math.min(Math.max(m.height, 40), 4000)}px`;
        drawn(entry);
      } else if (m.ok === false) failed(entry, String(m.error || 'it does not parse'));
      return;
    }
  });

  scheme.addEventListener('change', () => {
    for (const entry of frames.values()) {
      if (entry.frame.isConnected) send(entry);
    }
  });

  function forget() {
    for (const [n, entry] of frames) {
      if (!entry.frame.isConnected) frames.delete(n);
    }
  }

  document.addEventListener('DOMContentLoaded', () => place(document));
  document.addEventListener('htmx:afterSettle', (event) => {
    forget();
    place(event.target);
  });
})();
