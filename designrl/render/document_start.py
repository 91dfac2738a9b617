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
  which ends the job ``resource_exceeded``;
* Workers start from a script the router serves (``worker_script``): the same payload
  cap runs in the worker before the page's script (workers run no init script, and a
  CDP attach races Playwright's own). What no route sees is refused and reported on the
  console as ``REQUEST_REFUSED`` + URL, which the router records as a blocked request:
  every SharedWorker (no design needs one), a worker's WebSocket, a Worker started in a
  worker (its script would not start from ours), and WebTransport (QUIC).

Everything the guards call is taken when the document starts, before the page can
replace it. Init scripts run in every window of the page, ``about:blank`` frames and
popups included (measured with Playwright 1.65 and Debian's Chromium), so no window
hands out an unguarded ``Worker``.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

NAVIGATION_REFUSED = "designrl: navigation refused: "
CAP_EXCEEDED = "designrl: cap exceeded: "
REQUEST_REFUSED = "designrl: request refused: "
WORKER_SCRIPT = "__designrl_worker__.js"  # a worker's first script, beside the page's own
WORKER_CAP = "__designrl_worker_cap__.js"  # what a module worker imports before the page's
PAYLOAD_LIMIT = 4096  # characters of one console argument or one uncaught error
PAYLOAD_EXCEEDED = 1 << 20  # characters no page logs but to flood the driver

_CONSTANTS = (
    f"const NAVIGATION_REFUSED = {NAVIGATION_REFUSED!r}, CAP_EXCEEDED = {CAP_EXCEEDED!r},\n"
    f"  REQUEST_REFUSED = {REQUEST_REFUSED!r}, WORKER_SCRIPT = {WORKER_SCRIPT!r},\n"
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
  const reportError = globalThis.reportError;
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
    apply(reportError, globalThis, [new ErrorType(typeof text === 'string' ? text : fallback)]);
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

_CONSTRUCTOR_GUARDS = """
(() => {
  const apply = Reflect.apply, construct = Reflect.construct, encode = encodeURIComponent;
  const URLType = URL, Refusal = DOMException, report = console.debug;
  const slice = String.prototype.slice, define = Object.defineProperty;
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const href = getter(URL.prototype, 'href'), origin = getter(URL.prototype, 'origin');
  const protocol = getter(URL.prototype, 'protocol');
  const inWorker = typeof document === 'undefined';
  // What relative URLs resolve against: the document's base URL, or the worker's own.
  const base = inWorker ? ((at) => () => at)(location.href)
    : ((baseURI) => () => apply(baseURI, document, []))(getter(Node.prototype, 'baseURI'));
  const absolute = (url) => {
    try { return apply(href, new URLType(`${url}`, base()), []); } catch (e) { return `${url}`; }
  };
  const refuse = (url, why) => {
    apply(report, console, [REQUEST_REFUSED + apply(slice, url, [0, 2000])]);
    return new Refusal(why, 'SecurityError');
  };
  // A proxy keeps the constructor's statics and prototype; the prototype's `constructor`
  // is pointed at it, so the original is not one property away.
  const guard = (name, onConstruct) => {
    const Original = globalThis[name];
    if (typeof Original !== 'function') return;
    const Guarded = new Proxy(Original, {
      construct: (target, args, newTarget) => onConstruct(Original, args, newTarget),
    });
    define(Original.prototype, 'constructor', {value: Guarded, writable: true, configurable: true});
    globalThis[name] = Guarded;
  };
  const refused = (what) => (Original, args) => {
    throw refuse(absolute(args[0]), what + ' is not available in the sandbox');
  };
  guard('WebTransport', refused('WebTransport'));  // QUIC: no route sees it
  if (inWorker) {
    guard('WebSocket', refused('a WebSocket in a worker'));  // the page's are routed
    // No route sees a nested worker's script, so it could not start from ours.
    guard('Worker', refused('a Worker in a worker'));
    return;
  }
  guard('SharedWorker', refused('SharedWorker'));
  // A Worker starts from WORKER_SCRIPT, in the directory of its own script when that is
  // ours (so `location` and relative URLs in it resolve as before), else the document's.
  guard('Worker', (Original, args, newTarget) => {
    if (args.length === 0) return construct(Original, args, newTarget);  // the usual TypeError
    const options = args[1];
    let type, name, credentials;
    if (options !== null && (typeof options === 'object' || typeof options === 'function')) {
      type = options.type; name = options.name; credentials = options.credentials;
    }
    if (type !== undefined) type = `${type}`;
    const here = new URLType(base());
    const target = new URLType(`${args[0]}`, here);
    const scheme = apply(protocol, target, []);
    const own = (scheme === 'http:' || scheme === 'https:')
      && apply(origin, target, []) === apply(origin, here, []);
    const url = apply(href, target, []);
    let first;
    try {
      first = new URLType(WORKER_SCRIPT + '?module=' + (type === 'module' ? 1 : 0)
                          + '&url=' + encode(url), own ? target : here);
    } catch (e) { throw refuse(url, 'a worker needs an http(s) document'); }
    return construct(Original, [apply(href, first, []), {__proto__: null, type, name, credentials}],
                     newTarget);
  });
})();
"""

_NO_WEBRTC = """
for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel',
                    'RTCIceTransport', 'RTCSctpTransport']) {
  try { delete window[name]; } catch (e) {}
  try { Object.defineProperty(window, name, {value: undefined, configurable: false}); } catch (e) {}
}
"""

# The guards take console.debug before the payload cap wraps it. In a block, so that its
# constants are no globals a page's own declarations would collide with.
DOCUMENT_START_JS = "{\n" + (_CONSTANTS + _NAME_AND_HISTORY + _NAVIGATION_GUARD + _CONSTRUCTOR_GUARDS
                             + _PAYLOAD_CAP + _NO_WEBRTC) + "}\n"
WORKER_START_JS = "{\n" + _CONSTANTS + _CONSTRUCTOR_GUARDS + _PAYLOAD_CAP + "}\n"


def worker_script(url: str) -> str | None:
    """The script a worker starts from, for a request to ``WORKER_SCRIPT`` or ``WORKER_CAP``
    (None for any other URL): the worker guards and payload cap, then the page's own script
    (``importScripts``; a module worker imports the cap first, so it runs first)."""
    parts = urlsplit(url)
    name = parts.path.rsplit("/", 1)[-1]
    if name == WORKER_CAP:
        return WORKER_START_JS
    if name != WORKER_SCRIPT:
        return None
    query = parse_qs(parts.query)
    target = json.dumps(query.get("url", [""])[0])
    if query.get("module") == ["1"]:
        return f'import "/{WORKER_CAP}";\nimport {target};\n'
    return f"{WORKER_START_JS}importScripts({target});\n"
