// The API docs page's script, served from /api/docs.js: the page runs under the portal's
// Content-Security-Policy, which allows no inline script.
(async () => {
  const out = document.getElementById('out');
  const doc = await (await fetch('/api/openapi.json')).json();
  const groups = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = (op.tags || ['other'])[0];
      (groups[tag] = groups[tag] || []).push({ path, method, op });
    }
  }
  const render = (needle) => {
    out.textContent = '';
    for (const [tag, ops] of Object.entries(groups).sort()) {
      const shown = ops.filter(o => !needle || (o.path + ' ' + (o.op.summary || '') + ' ' + (o.op.description || '')).toLowerCase().includes(needle));
      if (!shown.length) continue;
      const h = document.createElement('h2'); h.textContent = tag; out.appendChild(h);
      for (const { path, method, op } of shown) {
        const d = document.createElement('details');
        const s = document.createElement('summary');
        const m = document.createElement('span'); m.className = 'm ' + method; m.textContent = method.toUpperCase();
        s.appendChild(m); s.appendChild(document.createTextNode(path + (op.summary ? ' \u2014 ' + op.summary : '')));
        d.appendChild(s);
        const pre = document.createElement('pre');
        pre.textContent = JSON.stringify({ description: op.description, parameters: op.parameters, requestBody: op.requestBody, responses: op.responses }, null, 2);
        d.appendChild(pre); out.appendChild(d);
      }
    }
  };
  render('');
  document.getElementById('filter').addEventListener('input', e => render(e.target.value.toLowerCase()));
})();
