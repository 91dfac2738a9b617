// The page shell every page imports: the API-key form in the header and the notice line.
import { getKey, setKey } from './api.js';
import { $ } from './dom.js';

const panel = $('#key-panel');
const input = $('#key-input');

$('#key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  setKey(input.value.trim());
  location.reload(); // every page loads its data with the key at start
});
$('#key-forget').addEventListener('click', () => {
  setKey('');
  location.reload();
});

// Shown under the page title; kind is 'info' or 'error'.
export function notice(text, kind = 'info') {
  const line = $('#notice');
  line.textContent = text;
  line.className = `notice ${kind}`;
  line.hidden = !text;
}

// What a failed call means for the user: a key problem opens the key form.
export function showError(error) {
  if (error.status === 401) {
    panel.open = true;
    notice(`${error.message}. Enter an API key above.`, 'error');
  } else {
    notice(error.message || String(error), 'error');
  }
}

// True when a key is set; otherwise opens the form and says why nothing loads.
export function requireKey() {
  if (getKey()) return true;
  panel.open = true;
  notice('Enter an API key (top right) to load data.', 'error');
  input.focus();
  return false;
}
