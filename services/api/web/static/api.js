// Talking to the REST API with the user's key. The key lives in this browser's localStorage
// and travels in the X-API-Key header, never in a URL, so it stays out of access logs.

const KEY = 'designrl.apiKey';

export const getKey = () => localStorage.getItem(KEY) || '';

export function setKey(key) {
  if (key) localStorage.setItem(KEY, key);
  else localStorage.removeItem(KEY);
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function headers(extra = {}) {
  const key = getKey();
  return key ? { 'X-API-Key': key, ...extra } : extra;
}

async function failure(response) {
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    message = body.message || message; // the API's one-line reason
  } catch {
    // not JSON: keep the status line
  }
  return new ApiError(response.status, message);
}

export async function api(path, { method = 'GET', body } = {}) {
  const init = { method, headers: headers() };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (!response.ok) throw await failure(response);
  return response.json();
}

// An <img> cannot send the key header: fetch the image and show it from a blob URL.
// Resolves to the response's headers (a placeholder says why in one of them).
export async function loadImage(img, path) {
  const response = await fetch(path, { headers: headers() });
  if (!response.ok) throw await failure(response);
  const url = URL.createObjectURL(await response.blob());
  img.addEventListener('load', () => URL.revokeObjectURL(url), { once: true });
  img.src = url;
  return response.headers;
}

// Server-Sent Events read through fetch, for the same reason: EventSource sends no headers.
// Calls onEvent(type, data) per event until the server closes the stream.
export async function streamEvents(path, onEvent, signal) {
  const response = await fetch(path, { headers: headers({ Accept: 'text/event-stream' }), signal });
  if (!response.ok) throw await failure(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = parseEvent(block);
      if (event) onEvent(event.type, event.data);
    }
  }
}

function parseEvent(block) {
  let type = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue; // a keep-alive comment
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
  }
  return data.length ? { type, data: JSON.parse(data.join('\n')) } : null;
}
