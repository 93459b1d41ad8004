/* global document, localStorage, location */
// The page's first paint (BootFrame.tsx, written into index.html by vite-boot-frame.ts, which inlines this
// script after the frame). Before the app's scripts have run: Mantine's light colour scheme (what its
// provider sets when it starts) and, for a visitor with a stored session, not on the sign-in or sign-up
// page, the frame shown in the session's mode, with its email and the current entry of the navigation
// marked as the Shell marks it. Anything else, or anything unexpected, takes the frame away: the app
// then draws as it would without it.
(function () {
  document.documentElement.setAttribute('data-mantine-color-scheme', 'light');
  var frame = document.getElementById('boot-frame');
  if (!frame) return;
  try {
    var session = JSON.parse(localStorage.getItem(frame.getAttribute('data-session-key')) || 'null');
    var path = location.pathname.replace(/^\/dashboard\/?/, '').replace(/\/+$/, '');
    if (!session || !(session.expiresAt > Date.now()) || /^sign-(in|up)(\/|$)/.test(path)) throw new Error();
    var each = function (selector, action) {
      Array.prototype.forEach.call(frame.querySelectorAll(selector), action);
    };
    var mode = session.mode === 'live' ? 'live' : 'test';
    if (mode === 'live')
      each('[data-boot-test]', function (element) {
        element.remove();
      });
    each('.mantine-SegmentedControl-control', function (control) {
      var input = control.querySelector('input');
      var on = input.value === mode;
      input.checked = on;
      [control, control.querySelector('label')].forEach(function (element) {
        if (on) element.setAttribute('data-active', 'true');
        else element.removeAttribute('data-active');
      });
    });
    each('[data-frame-email]', function (element) {
      element.textContent = session.email || '';
    });
    var current = null;
    each('[data-boot-path]', function (link) {
      var entry = link.getAttribute('data-boot-path');
      var under = entry === '' ? path === '' : path === entry || path.indexOf(entry + '/') === 0;
      if (under && (!current || entry.length > current.getAttribute('data-boot-path').length)) current = link;
    });
    if (current) current.setAttribute('data-active', 'true');
    frame.hidden = false;
  } catch {
    frame.remove();
  }
})();
