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
  the browser process, Playwright's driver and the worker. Workers run no init script,
  so ``Worker`` and ``SharedWorker`` start each one from a prelude that does the same
  and then loads the page's script (``importScripts`` or ``import()`` of its URL).

Everything the guards call is taken when the document starts, before the page can
replace it.
"""

from __future__ import annotations

NAVIGATION_REFUSED = "designrl: navigation refused: "
PAYLOAD_LIMIT = 4096  # characters of one console argument or one uncaught error

_CONSTANTS = (
    f"const NAVIGATION_REFUSED = {NAVIGATION_REFUSED!r}, PAYLOAD_LIMIT = {PAYLOAD_LIMIT};\n"
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

# One function for a window and for a worker (its own source is each worker's prelude).
_PAYLOAD_CAP = """
(function capPayloads(limit, base) {
  const scope = globalThis, apply = Reflect.apply, is = Object.is, ErrorType = Error;
  const tag = Object.prototype.toString;
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const slice = String.prototype.slice, source = getter(RegExp.prototype, 'source');
  const functionText = Function.prototype.toString;
  const symbolText = getter(Symbol.prototype, 'description');
  const huge = 10n ** BigInt(limit);
  const cut = (text) => apply(slice, text, [0, limit]) + '… [' + text.length + ' chars]';
  const long = (text) => typeof text === 'string' && text.length > limit;
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
  const console = scope.console;
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
  // oversized one is cancelled and reported again as an Error of its message, cut.
  const prevent = Event.prototype.preventDefault;
  const stop = Event.prototype.stopImmediatePropagation;
  const reportError = scope.reportError, listen = scope.addEventListener;
  const errorOf = getter(ErrorEvent.prototype, 'error');
  const messageOf = getter(ErrorEvent.prototype, 'message');
  const resend = (event, thrown, fallback) => {
    apply(prevent, event, []);
    apply(stop, event, []);
    let text = fallback;
    try {
      text = apply(tag, thrown, []) === '[object Error]' ? clip(thrown.message) : clip(thrown);
    } catch (e) {}
    apply(reportError, scope, [new ErrorType(typeof text === 'string' ? text : fallback)]);
  };
  apply(listen, scope, ['error', (event) => {
    if (apply(tag, event, []) !== '[object ErrorEvent]') return;  // a resource's, not a script's
    const message = apply(messageOf, event, []), error = apply(errorOf, event, []);
    if (long(message) || !is(clip(error), error)) resend(event, error, clip(message));
  }, true]);
  if (typeof PromiseRejectionEvent === 'function') {
    const reasonOf = getter(PromiseRejectionEvent.prototype, 'reason');
    apply(listen, scope, ['unhandledrejection', (event) => {
      const reason = apply(reasonOf, event, []);
      if (!is(clip(reason), reason)) resend(event, reason, 'Uncaught (in promise)');
    }, true]);
  }
  // Workers run no init script: each starts from this function, then loads the page's
  // script by its URL (one wrapper per URL, so a SharedWorker is still shared).
  const prelude = '(' + apply(functionText, capPayloads, []) + ')(' + limit + ', ';
  const Url = URL, Blob_ = Blob, makeUrl = URL.createObjectURL, stringify = JSON.stringify;
  const wrappers = new Map(), get = Map.prototype.get, set = Map.prototype.set;
  for (const name of ['Worker', 'SharedWorker']) {
    const Original = scope[name];
    if (typeof Original !== 'function') continue;
    const Wrapped = function (url, options) {
      if (new.target === undefined) return apply(Original, this, [url, options]);  // throws
      const from = base !== undefined ? base : scope.document.baseURI;
      const href = new Url(url, from).href;
      const module = options !== null && typeof options === 'object' && options.type === 'module';
      const key = (module ? 'm ' : 'c ') + href;
      let wrapper = apply(get, wrappers, [key]);
      if (wrapper === undefined) {
        const load = module ? 'await import(' + stringify(href) + ');'
                            : 'importScripts(' + stringify(href) + ');';
        wrapper = makeUrl(new Blob_([prelude + stringify(href) + ');\\n' + load],
                                    {type: 'text/javascript'}));
        apply(set, wrappers, [key, wrapper]);
      }
      return Reflect.construct(Original, [wrapper, options], new.target);
    };
    Wrapped.prototype = Original.prototype;
    Object.defineProperty(Wrapped, 'name', {value: name});
    Object.defineProperty(scope, name, {value: Wrapped, writable: true, configurable: true});
  }
})(PAYLOAD_LIMIT);
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
