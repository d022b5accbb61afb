// Draws one Mermaid diagram inside its own sandboxed frame (/diagram): the page
// that holds the frame sends the diagram's text and the colour scheme; the frame
// answers with the drawing's height, or why it could not be drawn. Mermaid's
// drawings carry inline styles, which quire's pages refuse (their content
// security policy has no 'unsafe-inline'): only this frame, which has no access
// to quire (an opaque origin: no cookies, no page), allows them.
(function () {
  'use strict';
  const out = document.getElementById('diagram');
  let drawn = 0;

  function tell(message) {
    window.parent.postMessage(message, '*');
  }

  async function draw(source, dark, n) {
    drawn += 1;
    window.mermaid.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      theme: dark ? 'dark' : 'default',
      fontFamily: 'system-ui, sans-serif',
    });
    try {
      const { svg } = await window.mermaid.render(`diagram-${drawn}`, source);
      out.innerHTML = svg;
      const box = out.firstElementChild.getBoundingClientRect();
      tell({ n, ok: true, height: Math.ceil(box.height) + 4 });
    } catch (error) {
      out.textContent = '';
      // Mermaid's parse errors say where, then what it expected.
      const lines = String((error && (error.message || error.str)) || error).split('\n').filter(Boolean);
      const why = lines.length > 1 ? `${lines[0]} ${lines[lines.length - 1]}` : lines[0] || 'it does not parse';
      tell({ n, ok: false, error: why.slice(0, 300) });
    }
  }

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const m = event.data || {};
    if (typeof m.source !== 'string' || typeof m.n !== 'number') return;
    draw(m.source, m.dark === true, m.n);
  });
  tell({ ready: true });
})();
