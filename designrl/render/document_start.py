"""The script every document runs first, in every frame, before any of the page's own.

It holds what request routing and Chromium's switches cannot:

* no WebRTC (its UDP bypasses request routing);
* no ``window.name`` carried over from the previous job's page (it survives navigation);
* a budget on ``history.pushState``/``replaceState`` (a flood swamps the browser process);
* the top frame's document stays the job's: a navigation the router never sees
  (``blob:``, ``about:blank``) is cancelled through the Navigation API and reported
  on the console as ``NAVIGATION_REFUSED`` + URL, a debug message the router records
  as a refusal, never as a console error;
* console arguments and uncaught errors are cut to ``PAYLOAD_LIMIT`` characters before
  Chromium serializes them: a 512 MB string logged once would otherwise be copied into
  the browser process, Playwright's driver and the worker. One over ``PAYLOAD_EXCEEDED``
  characters is a cap gone over: reported as ``CAP_EXCEEDED`` + ``console_payload``,
  which ends the job ``resource_exceeded``.

Everything the guards call is taken when the document starts, before the page can
replace it. Workers run no init script: their console is not cut.
"""

from __future__ import annotations

NAVIGATION_REFUSED = "designrl: navigation refused: "
CAP_EXCEEDED = "designrl: cap exceeded: "
PAYLOAD_LIMIT = 4096  # characters of one console argument or one uncaught error
PAYLOAD_EXCEEDED = 1 << 20  # characters no page logs but to flood the driver

_CONSTANTS = (
    f"const NAVIGATION_REFUSED = {NAVIGATION_REFUSED!r}, CAP_EXCEEDED = {CAP_EXCEEDED!r},\n"
    f"  PAYLOAD_LIMIT = {PAYLOAD_LIMIT}, PAYLOAD_EXCEEDED = {PAYLOAD_EXCEEDED};\n"
)

_NAME_AND_HISTORY = """
if (window === window.top) { window.name = ''; }
(() => {
  let budget = 200;
  for (const name of ['pushState', 'replaceState']) {
    const original = History.prototype[name];
    History.prototype[name] = function (...args) {
      if (budget-- > 0) return original.apply(this, args);
    };
  }
})();
"""

_NAVIGATION_GUARD = """
(() => {
  if (window !== window.top || !window.navigation) return;
  const apply = Reflect.apply;
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const destination = getter(NavigateEvent.prototype, 'destination');
  const url = getter(NavigationDestination.prototype, 'url');
  const sameDocument = getter(NavigationDestination.prototype, 'sameDocument');
  const cancelable = getter(Event.prototype, 'cancelable');
  const download = getter(NavigateEvent.prototype, 'downloadRequest');  // the sandbox's
  const prevent = Event.prototype.preventDefault;
  const report = console.debug;
  const slice = String.prototype.slice;
  navigation.addEventListener('navigate', (event) => {
    const to = apply(destination, event, []);
    const href = apply(url, to, []);
    const scheme = apply(slice, href, [0, 6]);
    if (apply(sameDocument, to, []) || !apply(cancelable, event, [])
        || apply(download, event, []) !== null || scheme === 'http:/' || scheme === 'https:') {
      return;  // http(s) goes through the router, which refuses and records it
    }
    apply(prevent, event, []);
    apply(report, console, [NAVIGATION_REFUSED + apply(slice, href, [0, 2000])]);
  });
})();
"""

_PAYLOAD_CAP = """
(() => {
  const apply = Reflect.apply, is = Object.is, ErrorType = Error, tag = Object.prototype.toString;
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const slice = String.prototype.slice, source = getter(RegExp.prototype, 'source');
  const functionText = Function.prototype.toString;
  const symbolText = getter(Symbol.prototype, 'description');
  const huge = 10n ** BigInt(PAYLOAD_LIMIT);
  const report = console.debug;
  let reported = false;
  const cut = (text) => {
    if (text.length > PAYLOAD_EXCEEDED && !reported) {
      reported = true;
      apply(report, console, [CAP_EXCEEDED + 'console_payload']);
    }
    return apply(slice, text, [0, PAYLOAD_LIMIT]) + '… [' + text.length + ' chars]';
  };
  const long = (text) => typeof text === 'string' && text.length > PAYLOAD_LIMIT;
  // What Chromium would send whole: strings, and the text an object is described by.
  const clip = (value) => {
    try {
      switch (typeof value) {
        case 'string': return long(value) ? cut(value) : value;
        case 'bigint': return value > huge || value < -huge ? '[a bigint too long to log]' : value;
        case 'symbol': { const text = apply(symbolText, value, []);
                         return long(text) ? 'Symbol(' + cut(text) + ')' : value; }
        case 'function': { const text = apply(functionText, value, []);
                           return long(text) ? cut(text) : value; }
        case 'object': {
          if (value === null) return value;
          const kind = apply(tag, value, []);
          if (kind === '[object RegExp]') {
            const text = apply(source, value, []);
            return long(text) ? '/' + cut(text) + '/' : value;
          }
          if (kind === '[object Error]') {
            const stack = value.stack, message = value.message;
            if (long(stack) || long(message)) return cut(long(message) ? message : stack);
          }
          return value;
        }
        default: return value;
      }
    } catch (e) { return '[a value that could not be logged]'; }
  };
  for (const name of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'dirxml',
                      'table', 'assert', 'count', 'countReset', 'group', 'groupCollapsed',
                      'time', 'timeLog', 'timeEnd']) {
    const original = console[name];
    if (typeof original !== 'function') continue;
    console[name] = {[name](...args) {
      for (let i = 0; i < args.length; i++) args[i] = clip(args[i]);
      return apply(original, console, args);
    }}[name];
  }
  // An uncaught error is reported to DevTools only if no listener cancels its event: an
  // oversized one is cancelled and reported again, cut.
  const prevent = Event.prototype.preventDefault;
  const stop = Event.prototype.stopImmediatePropagation;
  const reportError = window.reportError;
  const errorOf = getter(ErrorEvent.prototype, 'error');
  const messageOf = getter(ErrorEvent.prototype, 'message');
  const reasonOf = getter(PromiseRejectionEvent.prototype, 'reason');
  // Reported again as an Error of the thrown error's message (or the thrown value), cut.
  const resend = (event, thrown, fallback) => {
    apply(prevent, event, []);
    apply(stop, event, []);
    let text = fallback;
    try {
      text = apply(tag, thrown, []) === '[object Error]' ? clip(thrown.message) : clip(thrown);
    } catch (e) {}
    apply(reportError, window, [new ErrorType(typeof text === 'string' ? text : fallback)]);
  };
  addEventListener('error', (event) => {
    if (apply(tag, event, []) !== '[object ErrorEvent]') return;  // a resource's, not a script's
    const message = apply(messageOf, event, []), error = apply(errorOf, event, []);
    if (long(message) || !is(clip(error), error)) resend(event, error, clip(message));
  }, true);
  addEventListener('unhandledrejection', (event) => {
    const reason = apply(reasonOf, event, []);
    if (!is(clip(reason), reason)) resend(event, reason, 'Uncaught (in promise)');
  }, true);
})();
"""

_NO_WEBRTC = """
for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel',
                    'RTCIceTransport', 'RTCSctpTransport']) {
  try { delete window[name]; } catch (e) {}
  try { Object.defineProperty(window, name, {value: undefined, configurable: false}); } catch (e) {}
}
"""

# The navigation guard takes console.debug before the payload cap wraps it.
DOCUMENT_START_JS = _CONSTANTS + _NAME_AND_HISTORY + _NAVIGATION_GUARD + _PAYLOAD_CAP + _NO_WEBRTC
