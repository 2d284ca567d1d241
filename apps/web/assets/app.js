/*
 * The only script of the application, served from /assets (the CSP forbids inline scripts).
 * Pages work without it; it adds the presets, the live Generate Key state, the expiry preview
 * and the copy button.
 */
(function () {
  'use strict';

  function permissionsForm(form) {
    var selects = Array.prototype.slice.call(form.querySelectorAll('select[data-scope]'));
    var generate = form.querySelector('[data-generate]');
    var hint = document.getElementById('generate-hint');
    var summary = document.getElementById('permission-summary');

    function refresh() {
      var granted = selects.filter(function (s) {
        return s.value !== 'none';
      }).length;
      selects.forEach(function (s) {
        var row = s.closest('tr');
        if (row) row.classList.toggle('is-granted', s.value !== 'none');
      });
      if (generate) generate.disabled = granted === 0;
      if (hint) hint.hidden = granted !== 0;
      if (summary) {
        summary.textContent =
          granted === 0
            ? 'No scope granted yet.'
            : granted + ' of ' + selects.length + ' scopes granted.';
      }
    }

    form.querySelectorAll('button[data-preset]').forEach(function (button) {
      button.addEventListener('click', function (event) {
        event.preventDefault();
        var level = button.getAttribute('data-preset');
        selects.forEach(function (s) {
          s.value = level;
        });
        refresh();
      });
    });
    selects.forEach(function (s) {
      s.addEventListener('change', refresh);
    });
    refresh();
  }

  function expiryPreview(select) {
    var output = document.getElementById(select.getAttribute('data-expiry-preview'));
    if (!output) return;
    var format = new Intl.DateTimeFormat(undefined, {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    });
    function refresh() {
      var days = Number(select.value);
      if (!days) {
        output.textContent = '';
        return;
      }
      output.textContent =
        'Expires on ' + format.format(new Date(Date.now() + days * 86400000)) + '.';
    }
    select.addEventListener('change', refresh);
    refresh();
  }

  function copyButton(button) {
    var source = document.getElementById(button.getAttribute('data-copy'));
    var status = document.getElementById(button.getAttribute('data-copy-status'));
    button.hidden = false;
    button.addEventListener('click', function () {
      function done(message) {
        if (status) status.textContent = message;
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(source.value).then(
          function () {
            done('Copied to the clipboard.');
          },
          function () {
            source.select();
            done('Press Ctrl+C (or Cmd+C) to copy.');
          },
        );
      } else {
        source.focus();
        source.select();
        var ok = false;
        try {
          ok = document.execCommand('copy');
        } catch {
          ok = false;
        }
        done(ok ? 'Copied to the clipboard.' : 'Press Ctrl+C (or Cmd+C) to copy.');
      }
    });
  }

  // Enrolling a provider: only the section of the chosen destination is shown (each section
  // also says which destinations it is for, for a browser without this script).
  function destinationForm(form) {
    var radios = Array.prototype.slice.call(form.querySelectorAll('input[name="destination"]'));
    var sections = Array.prototype.slice.call(form.querySelectorAll('[data-destination-section]'));
    function refresh() {
      var chosen = radios.filter(function (r) {
        return r.checked;
      })[0];
      var kind = chosen ? chosen.value : 'webhook';
      sections.forEach(function (section) {
        var kinds = section.getAttribute('data-destination-section').split(' ');
        section.hidden = kinds.indexOf(kind) === -1;
      });
    }
    radios.forEach(function (r) {
      r.addEventListener('change', refresh);
    });
    refresh();
  }

  document.querySelectorAll('form[data-permissions-form]').forEach(permissionsForm);
  document.querySelectorAll('form[data-destination-form]').forEach(destinationForm);
  document.querySelectorAll('select[data-expiry-preview]').forEach(expiryPreview);
  document.querySelectorAll('button[data-copy]').forEach(copyButton);
  document.querySelectorAll('[data-focus-on-load]').forEach(function (el) {
    el.focus();
  });

  // A page that showed a secret after a POST: turn the history entry into a plain GET, so
  // Reload or Back never resubmits the form or shows the secret again.
  var replace = document.querySelector('meta[name="vigil-replace-url"]');
  if (replace && window.history && window.history.replaceState) {
    window.history.replaceState(null, '', replace.getAttribute('content'));
  }
})();
