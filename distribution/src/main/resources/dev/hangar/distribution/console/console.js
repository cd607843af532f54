// Hangar's web console. Plain browser JavaScript, no build step and no library: the page talks to the
// administration API (/actuator/...) and to the S3 API as the root key (/console/api/s3/...), both with the
// administration token. Everything a server sends is put into the page as text, never as markup: object keys
// and bucket names are user data.
'use strict';

const S3 = '/console/api/s3';
const TOKEN = 'hangar.console.token';
const SAMPLE_MILLIS = 5000;
const SAMPLES = 60;

// ---- small helpers --------------------------------------------------------------------------------------

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.substring(2), value);
    else if (name === 'class') node.className = value;
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function table(headings, rows) {
  return el('table', {},
    el('thead', {}, el('tr', {}, headings.map(h => el('th', { class: h.num ? 'num' : null }, h.label || h)))),
    el('tbody', {}, rows));
}

function bytes(n) {
  if (n === null || n === undefined || isNaN(n)) return '-';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = Number(n);
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return (unit === 0 ? value.toFixed(0) : value.toFixed(1)) + ' ' + units[unit];
}

function when(text) {
  if (!text) return '';
  const date = new Date(text);
  return isNaN(date) ? text : date.toLocaleString();
}

function status(message, isError) {
  const bar = document.getElementById('status');
  bar.textContent = message || '';
  bar.hidden = !message;
  bar.classList.toggle('error', !!isError);
}

// A delete button that asks once more instead of a dialog: the first click arms it, the second acts.
function deleteButton(label, action) {
  const button = el('button', { type: 'button', class: 'danger' }, label);
  button.addEventListener('click', async () => {
    if (!button.classList.contains('armed')) {
      button.classList.add('armed');
      button.textContent = 'Confirm';
      setTimeout(() => { button.classList.remove('armed'); button.textContent = label; }, 4000);
      return;
    }
    button.disabled = true;
    try { await action(); } catch (error) { status(error.message, true); button.disabled = false; }
  });
  return button;
}

// S3 keys in a path: every segment percent-encoded, the slashes kept.
function keyPath(key) {
  return key.split('/').map(encodeURIComponent).join('/');
}

// ---- calls ----------------------------------------------------------------------------------------------

class Unauthorized extends Error {}

// A request with the token; a refused token is Unauthorized, any other status is the caller's to judge.
async function send(path, options) {
  const init = Object.assign({}, options || {});
  init.headers = Object.assign({ Authorization: 'Bearer ' + sessionStorage.getItem(TOKEN) }, init.headers || {});
  const response = await fetch(path, init);
  if (response.status === 401) {
    throw new Unauthorized('the administration token was refused');
  }
  return response;
}

async function call(path, options) {
  const response = await send(path, options);
  if (!response.ok) {
    throw new Error(await failure(response));
  }
  return response;
}

// What went wrong, from an S3 XML error, an administration API's JSON error, or the status alone.
async function failure(response) {
  const text = await response.text();
  if (text.startsWith('<')) {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    const code = doc.querySelector('Error > Code');
    const message = doc.querySelector('Error > Message');
    if (code) return code.textContent + (message ? ': ' + message.textContent : '');
  }
  try {
    const json = JSON.parse(text);
    if (json.error) return json.error;
  } catch (ignored) { /* not JSON */ }
  return response.status + ' ' + response.statusText;
}

async function xml(path, options) {
  const response = await call(path, options);
  return new DOMParser().parseFromString(await response.text(), 'application/xml');
}

async function json(path, options) {
  const response = await call(path, options);
  return response.status === 204 ? null : response.json();
}

function jsonBody(method, body) {
  return { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

// Children of an element with the given local name (S3 documents are in a namespace).
function children(node, name) {
  return Array.from(node.children).filter(child => child.localName === name);
}

function child(node, name) {
  const found = children(node, name)[0];
  return found ? found.textContent : null;
}

// ---- routing --------------------------------------------------------------------------------------------

const views = { buckets: showBuckets, bucket: showBucket, keys: showKeys, cluster: showCluster, metrics: showMetrics };

function route() {
  const hash = decodeURIComponent(location.hash.replace(/^#\/?/, ''));
  const [name, ...rest] = hash.split('/');
  if (name === 'b' && rest.length > 0) return { view: 'bucket', bucket: rest[0], prefix: rest.slice(1).join('/') };
  return { view: views[name] ? name : 'buckets' };
}

async function render() {
  if (!sessionStorage.getItem(TOKEN)) {
    showLogin();
    return;
  }
  document.getElementById('login').hidden = true;
  document.getElementById('nav').hidden = false;
  const target = route();
  const navName = target.view === 'bucket' ? 'buckets' : target.view;
  for (const link of document.querySelectorAll('nav a')) {
    link.classList.toggle('current', link.dataset.view === navName);
  }
  const view = document.getElementById('view');
  try {
    const content = await views[target.view](target);
    view.replaceChildren(content);
  } catch (error) {
    if (error instanceof Unauthorized) {
      signOut('The administration token was refused: sign in again.');
      return;
    }
    view.replaceChildren(el('p', { class: 'error' }, error.message));
    status(error.message, true);
  }
  sampler.start();
}

function refresh() {
  return render();
}

function showLogin(message) {
  document.getElementById('nav').hidden = true;
  document.getElementById('view').replaceChildren();
  document.getElementById('login').hidden = false;
  document.getElementById('token').focus();
  status(message, !!message);
}

function signOut(message) {
  sessionStorage.removeItem(TOKEN);
  sampler.stop();
  showLogin(message);
}

// ---- buckets and objects -------------------------------------------------------------------------------

async function showBuckets() {
  const doc = await xml(S3 + '/');
  const buckets = Array.from(doc.getElementsByTagNameNS('*', 'Bucket'));
  const name = el('input', { type: 'text', id: 'new-bucket', placeholder: 'bucket-name', required: true });
  const form = el('form', { class: 'inline', id: 'create-bucket' }, el('label', {}, 'New bucket ', name),
    el('button', { type: 'submit' }, 'Create'));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    try {
      await call(S3 + '/' + encodeURIComponent(name.value.trim()), { method: 'PUT' });
      status('Bucket ' + name.value.trim() + ' created.');
      await refresh();
    } catch (error) {
      status(error.message, true);
    }
  });
  const rows = buckets.map(bucket => {
    const bucketName = child(bucket, 'Name');
    return el('tr', { 'data-bucket': bucketName },
      el('td', {}, el('a', { href: '#/b/' + encodeURIComponent(bucketName) + '/' }, bucketName)),
      el('td', {}, when(child(bucket, 'CreationDate'))),
      el('td', {}, deleteButton('Delete', async () => {
        await call(S3 + '/' + encodeURIComponent(bucketName), { method: 'DELETE' });
        status('Bucket ' + bucketName + ' deleted.');
        await refresh();
      })));
  });
  return el('div', {}, el('h1', {}, 'Buckets'), form,
    buckets.length === 0 ? el('p', {}, 'No buckets yet.') : table(['Name', 'Created', ''], rows));
}

const bucketState = { versions: false };

async function showBucket(target) {
  const bucket = target.bucket;
  const prefix = target.prefix;
  const base = S3 + '/' + encodeURIComponent(bucket);
  const versioning = child((await xml(base + '?versioning')).documentElement, 'Status') || 'Off';

  const crumbs = el('div', { class: 'crumbs' }, el('a', { href: '#/buckets' }, 'Buckets'), ' / ',
    el('a', { href: '#/b/' + encodeURIComponent(bucket) + '/' }, bucket));
  let walked = '';
  for (const part of prefix.split('/').filter(p => p.length > 0)) {
    walked += part + '/';
    crumbs.append(' / ', el('a', { href: '#/b/' + encodeURIComponent(bucket) + '/' + walked }, part));
  }

  const versionSwitch = el('input', { type: 'checkbox', id: 'show-versions', checked: bucketState.versions });
  versionSwitch.addEventListener('change', () => { bucketState.versions = versionSwitch.checked; refresh(); });
  const versioningButton = el('button', { type: 'button', class: 'secondary', id: 'versioning' },
    versioning === 'Enabled' ? 'Suspend versioning' : 'Enable versioning');
  versioningButton.addEventListener('click', async () => {
    const next = versioning === 'Enabled' ? 'Suspended' : 'Enabled';
    try {
      await call(base + '?versioning', { method: 'PUT', headers: { 'Content-Type': 'application/xml' },
        body: '<VersioningConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Status>' + next
          + '</Status></VersioningConfiguration>' });
      status('Versioning of ' + bucket + ': ' + next + '.');
      await refresh();
    } catch (error) {
      status(error.message, true);
    }
  });

  const files = el('input', { type: 'file', id: 'upload-files', multiple: true });
  const upload = el('form', { class: 'inline', id: 'upload' }, el('label', {}, 'Upload to ' + (prefix || '/') + ' ', files),
    el('button', { type: 'submit' }, 'Upload'));
  upload.addEventListener('submit', async event => {
    event.preventDefault();
    const chosen = Array.from(files.files);
    try {
      for (const file of chosen) {
        status('Uploading ' + file.name + ' (' + bytes(file.size) + ')...');
        // The browser streams the file from disk as the body.
        await call(base + '/' + keyPath(prefix + file.name), { method: 'PUT', body: file,
          headers: { 'Content-Type': file.type || 'application/octet-stream' } });
      }
      status('Uploaded ' + chosen.length + ' file' + (chosen.length === 1 ? '' : 's') + '.');
      await refresh();
    } catch (error) {
      status(error.message, true);
    }
  });

  const listing = el('div', { id: 'listing' });
  await (bucketState.versions ? listVersions : listObjects)(listing, bucket, prefix, null);
  return el('div', {}, el('h1', {}, bucket), crumbs,
    el('div', { class: 'toolbar' }, el('span', {}, 'Versioning: ', el('strong', { id: 'versioning-status' }, versioning)),
      versioningButton, el('label', {}, versionSwitch, ' Show versions')),
    upload, listing);
}

function folderRow(bucket, prefix, columns) {
  const name = prefix.split('/').filter(p => p).pop() + '/';
  return el('tr', { 'data-prefix': prefix },
    el('td', {}, el('a', { href: '#/b/' + encodeURIComponent(bucket) + '/' + prefix }, name)),
    Array.from({ length: columns - 1 }, () => el('td', {})));
}

function objectActions(bucket, key, versionId) {
  const query = versionId ? '?versionId=' + encodeURIComponent(versionId) : '';
  const path = S3 + '/' + encodeURIComponent(bucket) + '/' + keyPath(key) + query;
  const download = el('button', { type: 'button', class: 'secondary' }, 'Download');
  download.addEventListener('click', async () => {
    try {
      const blob = await (await call(path)).blob();
      const url = URL.createObjectURL(blob);
      const link = el('a', { href: url, download: key.split('/').pop() });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
    } catch (error) {
      status(error.message, true);
    }
  });
  return el('td', { class: 'actions' }, download, ' ', deleteButton('Delete', async () => {
    await call(path, { method: 'DELETE' });
    status('Deleted ' + key + (versionId ? ' version ' + versionId : '') + '.');
    await refresh();
  }));
}

async function listObjects(container, bucket, prefix, token) {
  let query = '?list-type=2&delimiter=%2F&prefix=' + encodeURIComponent(prefix);
  if (token) query += '&continuation-token=' + encodeURIComponent(token);
  const doc = (await xml(S3 + '/' + encodeURIComponent(bucket) + query)).documentElement;
  const rows = [];
  for (const common of children(doc, 'CommonPrefixes')) rows.push(folderRow(bucket, child(common, 'Prefix'), 4));
  for (const object of children(doc, 'Contents')) {
    const key = child(object, 'Key');
    rows.push(el('tr', { 'data-key': key },
      el('td', {}, key.substring(prefix.length)),
      el('td', { class: 'num' }, bytes(child(object, 'Size'))),
      el('td', {}, when(child(object, 'LastModified'))),
      objectActions(bucket, key, null)));
  }
  const next = child(doc, 'IsTruncated') === 'true' ? child(doc, 'NextContinuationToken') : null;
  appendPage(container, ['Name', { label: 'Size', num: true }, 'Modified', ''], rows, next,
    () => listObjects(container, bucket, prefix, next));
}

async function listVersions(container, bucket, prefix, marker) {
  let query = '?versions&delimiter=%2F&prefix=' + encodeURIComponent(prefix);
  if (marker) query += '&key-marker=' + encodeURIComponent(marker.key) + '&version-id-marker=' + encodeURIComponent(marker.version);
  const doc = (await xml(S3 + '/' + encodeURIComponent(bucket) + query)).documentElement;
  const rows = [];
  for (const common of children(doc, 'CommonPrefixes')) rows.push(folderRow(bucket, child(common, 'Prefix'), 6));
  // Versions and delete markers in the listing's order: by key, newest first.
  for (const entry of Array.from(doc.children).filter(c => c.localName === 'Version' || c.localName === 'DeleteMarker')) {
    const key = child(entry, 'Key');
    const versionId = child(entry, 'VersionId');
    const latest = child(entry, 'IsLatest') === 'true';
    const marker = entry.localName === 'DeleteMarker';
    rows.push(el('tr', { 'data-key': key, 'data-version': versionId, class: latest ? null : 'old' },
      el('td', {}, key.substring(prefix.length)),
      el('td', {}, versionId, latest ? ' ' : '', latest ? el('span', { class: 'badge' }, 'latest') : ''),
      el('td', {}, marker ? 'delete marker' : 'object'),
      el('td', { class: 'num' }, marker ? '' : bytes(child(entry, 'Size'))),
      el('td', {}, when(child(entry, 'LastModified'))),
      marker ? el('td', {}, deleteButton('Delete', async () => {
        await call(S3 + '/' + encodeURIComponent(bucket) + '/' + keyPath(key) + '?versionId=' + encodeURIComponent(versionId),
          { method: 'DELETE' });
        status('Removed the delete marker of ' + key + '.');
        await refresh();
      })) : objectActions(bucket, key, versionId)));
  }
  const truncated = child(doc, 'IsTruncated') === 'true';
  const next = truncated ? { key: child(doc, 'NextKeyMarker'), version: child(doc, 'NextVersionIdMarker') } : null;
  appendPage(container, ['Name', 'Version', 'Kind', { label: 'Size', num: true }, 'Modified', ''], rows, next,
    () => listVersions(container, bucket, prefix, next));
}

// Adds a page of a listing; a "More" button fetches the next one into the same table.
function appendPage(container, headings, rows, next, more) {
  let body = container.querySelector('tbody');
  if (!body) {
    if (rows.length === 0) {
      container.append(el('p', {}, 'Nothing here.'));
      return;
    }
    container.append(table(headings, []));
    body = container.querySelector('tbody');
  }
  body.append(...rows);
  container.querySelector('button.more')?.remove();
  if (next) {
    const button = el('button', { type: 'button', class: 'secondary more' }, 'More');
    button.addEventListener('click', async () => {
      button.disabled = true;
      try { await more(); } catch (error) { status(error.message, true); button.disabled = false; }
    });
    container.append(button);
  }
}

// ---- access keys ----------------------------------------------------------------------------------------

function permissionText(permission) {
  return ['read', 'write', 'owner'].filter(name => permission[name]).join(', ') || 'none';
}

function permissionFields() {
  const bucket = el('input', { type: 'text', placeholder: 'bucket', class: 'grant-bucket' });
  const boxes = Object.fromEntries(['read', 'write', 'owner'].map(name =>
    [name, el('input', { type: 'checkbox', class: 'grant-' + name })]));
  const create = el('input', { type: 'checkbox', class: 'grant-create' });
  const fields = [bucket, ...['read', 'write', 'owner'].map(name => el('label', {}, boxes[name], ' ' + name)),
    el('label', {}, create, ' may create buckets')];
  const values = () => {
    const body = {};
    if (bucket.value.trim()) {
      body.bucket = bucket.value.trim();
      for (const name of ['read', 'write', 'owner']) body[name] = boxes[name].checked;
    }
    body.createBuckets = create.checked;
    return body;
  };
  return { fields, values };
}

async function showKeys() {
  const list = await json('/actuator/accesskeys');
  const created = el('div', { id: 'created-key' });
  const creation = permissionFields();
  const form = el('form', { class: 'inline', id: 'create-key' }, creation.fields, el('button', { type: 'submit' }, 'Create key'));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    try {
      const key = await json('/actuator/accesskeys', jsonBody('POST', creation.values()));
      created.replaceChildren(el('p', {}, 'Key created. Its secret is shown this once:'),
        el('div', { class: 'secret' }, el('div', {}, 'Access key id: ', el('span', { id: 'created-id' }, key.id)),
          el('div', {}, 'Secret: ', el('span', { id: 'created-secret' }, key.secret))));
      await refreshKeys(keysBox);
    } catch (error) {
      status(error.message, true);
    }
  });
  const keysBox = el('div', { id: 'keys' });
  fillKeys(keysBox, list);
  return el('div', {}, el('h1', {}, 'Access keys'), form, created, keysBox);
}

async function refreshKeys(container) {
  fillKeys(container, await json('/actuator/accesskeys'));
}

function fillKeys(container, list) {
  const rows = list.keys.map(key => {
    const grants = Object.entries(key.buckets || {}).map(([bucket, permission]) =>
      el('div', {}, bucket + ': ' + permissionText(permission)));
    const grant = permissionFields();
    const grantForm = el('form', { class: 'inline grant' }, grant.fields, el('button', { type: 'submit', class: 'secondary' }, 'Grant'));
    grantForm.addEventListener('submit', async event => {
      event.preventDefault();
      try {
        await json('/actuator/accesskeys/' + encodeURIComponent(key.id), jsonBody('POST', grant.values()));
        status('Permissions of ' + key.id + ' changed.');
        await refreshKeys(container);
      } catch (error) {
        status(error.message, true);
      }
    });
    return el('tr', { 'data-key-id': key.id },
      el('td', {}, key.id, key.root ? ' ' : '', key.root ? el('span', { class: 'badge' }, 'root') : ''),
      el('td', {}, when(key.created)),
      el('td', {}, key.root ? 'everything' : [grants.length ? grants : 'no bucket', key.createBuckets ? el('div', {}, 'may create buckets') : '']),
      el('td', {}, key.root ? '' : [grantForm, deleteButton('Revoke', async () => {
        await call('/actuator/accesskeys/' + encodeURIComponent(key.id), { method: 'DELETE' });
        status('Key ' + key.id + ' revoked.');
        await refreshKeys(container);
      })]));
  });
  container.replaceChildren(table(['Key', 'Created', 'Permissions', ''], rows));
}

// ---- cluster, health and storage ------------------------------------------------------------------------

function badge(state) {
  const text = String(state);
  const kind = /^(UP|up)$/.test(text) ? 'up' : /^(DOWN|down|OUT_OF_SERVICE)$/.test(text) ? 'down' : 'other';
  return el('span', { class: 'badge ' + kind }, text);
}

function facts(object) {
  const list = el('dl', { class: 'facts' });
  for (const [name, value] of Object.entries(object || {})) {
    if (value !== null && typeof value === 'object') continue;
    list.append(el('dt', {}, name), el('dd', {}, /bytes$|Bytes$/.test(name) ? bytes(value) : String(value)));
  }
  return list;
}

async function showCluster() {
  const [health, cluster, storage] = await Promise.all([healthStatus(), json('/actuator/cluster'), json('/actuator/storage')]);
  const components = Object.entries(health.components || {}).map(([name, component]) =>
    el('tr', { 'data-component': name }, el('td', {}, name), el('td', {}, badge(component.status))));
  const parts = [el('h1', {}, 'Cluster'),
    el('p', { id: 'health' }, 'Health: ', badge(health.status)),
    components.length ? table(['Component', 'Status'], components) : ''];
  if (!cluster.enabled) {
    parts.push(el('p', { id: 'single-node' }, 'A single node: clustering is off.'));
  } else {
    parts.push(el('p', {}, 'This node: ' + cluster.self + ', replication ' + cluster.replication + '.'));
    parts.push(el('h2', {}, 'Nodes'), table(['Node', 'State', 'Zone', { label: 'Capacity', num: true }, 'Address', 'Layout', 'Last seen'],
      cluster.nodes.map(node => el('tr', { 'data-node': node.id },
        el('td', {}, node.id + (node.self ? ' (this node)' : '')), el('td', {}, badge(node.state)), el('td', {}, node.zone),
        el('td', { class: 'num' }, node.capacity), el('td', {}, node.address), el('td', {}, node.layoutVersion),
        el('td', {}, when(node.lastSeen))))));
    parts.push(el('h2', {}, 'Layout'), layoutTable(cluster.layout));
    if (cluster.staged && ((cluster.staged.roles || []).length || (cluster.staged.removals || []).length)) {
      parts.push(el('h2', {}, 'Staged changes'), el('pre', {}, JSON.stringify(cluster.staged, null, 2)));
    }
  }
  parts.push(el('h2', {}, 'Storage'));
  for (const [name, section] of Object.entries(storage || {})) {
    if (section && typeof section === 'object') parts.push(el('h3', {}, name), facts(section));
  }
  return el('div', {}, parts);
}

// Health answers 503 with its body while it is DOWN: that is a status to show, not a failure.
async function healthStatus() {
  const response = await send('/actuator/health');
  if (!response.ok && response.status !== 503) throw new Error(await failure(response));
  return response.json();
}

function layoutTable(layout) {
  if (!layout) return el('p', {}, 'No layout yet.');
  const roles = layout.roles || layout.nodes || [];
  return el('div', {}, facts(layout),
    Array.isArray(roles) && roles.length ? table(Object.keys(roles[0]), roles.map(role =>
      el('tr', {}, Object.values(role).map(value => el('td', {}, typeof value === 'object' ? JSON.stringify(value) : String(value))))))
      : '');
}

// ---- metrics --------------------------------------------------------------------------------------------

// Samples the node's own metrics every few seconds while the console is open, so that the charts have a
// history: the server keeps counters, not series.
const sampler = {
  timer: null,
  samples: [],
  start() {
    if (this.timer) return;
    this.take();
    this.timer = setInterval(() => this.take(), SAMPLE_MILLIS);
  },
  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.samples = [];
  },
  async take() {
    try {
      const [requests, received, sent, stored, objects] = await Promise.all([
        metric('hangar.s3.requests'), metric('hangar.s3.received'), metric('hangar.s3.sent'),
        metric('hangar.storage.bytes'), metric('hangar.storage.objects')]);
      this.samples.push({ at: Date.now(), requests: requests.COUNT || 0, millis: requests.TOTAL_TIME || 0,
        received: received.COUNT || 0, sent: sent.COUNT || 0, stored: stored.VALUE, objects: objects.VALUE });
      if (this.samples.length > SAMPLES + 1) this.samples.shift();
      if (route().view === 'metrics') drawCharts();
    } catch (error) {
      if (error instanceof Unauthorized) signOut('The administration token was refused: sign in again.');
    }
  }
};

// A metric's measurements by statistic; empty when the metric has no value yet (no request of that kind).
async function metric(name) {
  const response = await send('/actuator/metrics/' + name);
  if (!response.ok) return {};
  const body = await response.json();
  const values = Object.fromEntries(body.measurements.map(m => [m.statistic, m.value]));
  // Times come in the base unit of the registry that answers (seconds for Prometheus', milliseconds for JMX's).
  if (values.TOTAL_TIME !== undefined && body.baseUnit === 'seconds') values.TOTAL_TIME *= 1000;
  return values;
}

const charts = [
  { id: 'rate', title: 'Requests per second', format: v => v.toFixed(1),
    value: (a, b) => (b.requests - a.requests) / ((b.at - a.at) / 1000) },
  { id: 'latency', title: 'Mean latency (ms)', format: v => v.toFixed(2),
    value: (a, b) => b.requests > a.requests ? (b.millis - a.millis) / (b.requests - a.requests) : 0 },
  { id: 'received', title: 'Received per second', format: bytes,
    value: (a, b) => (b.received - a.received) / ((b.at - a.at) / 1000) },
  { id: 'sent', title: 'Sent per second', format: bytes,
    value: (a, b) => (b.sent - a.sent) / ((b.at - a.at) / 1000) },
  { id: 'stored', title: 'Stored', format: bytes, value: (a, b) => b.stored },
  { id: 'objects', title: 'Objects', format: v => String(Math.round(v)), value: (a, b) => b.objects }
];

async function showMetrics() {
  const grid = el('div', { class: 'charts' }, charts.map(chart =>
    el('div', { class: 'chart', id: 'chart-' + chart.id }, el('h3', {}, chart.title),
      el('div', { class: 'value' }, '-'), svg('svg', { viewBox: '0 0 300 100', preserveAspectRatio: 'none' }))));
  setTimeout(drawCharts, 0);
  return el('div', {}, el('h1', {}, 'Metrics'),
    el('p', {}, 'This node, sampled every ' + SAMPLE_MILLIS / 1000 + ' s while the console is open (the last '
      + SAMPLES * SAMPLE_MILLIS / 60000 + ' minutes). Prometheus scrapes /actuator/prometheus for the long run.'),
    grid);
}

function svg(tag, attributes) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  return node;
}

function drawCharts() {
  const samples = sampler.samples;
  for (const chart of charts) {
    const box = document.getElementById('chart-' + chart.id);
    if (!box) continue;
    const points = [];
    for (let i = 1; i < samples.length; i++) {
      const value = chart.value(samples[i - 1], samples[i]);
      if (value !== undefined && value !== null && !isNaN(value)) points.push(value);
    }
    box.querySelector('.value').textContent = points.length ? chart.format(points[points.length - 1]) : 'collecting...';
    const plot = box.querySelector('svg');
    plot.replaceChildren();
    const top = Math.max(...points, 0) || 1;
    plot.append(svg('line', { x1: 0, y1: 99, x2: 300, y2: 99 }));
    const text = svg('text', { x: 2, y: 10 });
    text.textContent = 'max ' + chart.format(top);
    plot.append(text);
    if (points.length > 0) {
      // The samples so far span the width: a fresh console draws a line at once, not a dot at the right edge.
      const step = 300 / Math.max(points.length - 1, 1);
      const line = points.map((value, i) => (i * step).toFixed(1) + ',' + (98 - value / top * 84).toFixed(1));
      plot.append(svg('polyline', { points: line.join(' ') }));
    }
  }
}

// ---- start ----------------------------------------------------------------------------------------------

document.getElementById('login-form').addEventListener('submit', async event => {
  event.preventDefault();
  const token = document.getElementById('token').value.trim();
  sessionStorage.setItem(TOKEN, token);
  try {
    await call('/actuator/accesskeys');
    document.getElementById('token').value = '';
    status('');
    await render();
  } catch (error) {
    sessionStorage.removeItem(TOKEN);
    status(error instanceof Unauthorized ? 'Wrong token.' : error.message, true);
  }
});
document.getElementById('sign-out').addEventListener('click', () => signOut());
window.addEventListener('hashchange', () => { status(''); render(); });
render();
