// Progressive enhancement shared by the pages: nothing here is needed to read or use a page.
// Autocomplete: <input data-autocomplete="/api/x/?q=" data-autocomplete-items="suggestions" data-autocomplete-label="title"
// list="some-datalist-id"> fills the datalist with suggestions as the user types (3 characters or more).
(function () {
  'use strict';
  function debounce(fn, ms) {
    var timer = null;
    return function () {
      var args = arguments;
      clearTimeout(timer);
      timer = setTimeout(function () {
        fn.apply(null, args);
      }, ms);
    };
  }
  function pick(object, path) {
    return String(path || '')
      .split('.')
      .filter(Boolean)
      .reduce(function (value, key) {
        return value == null ? value : value[key];
      }, object);
  }
  function enhanceAutocomplete(input) {
    var list = document.getElementById(input.getAttribute('list') || '');
    if (!list) return;
    var min = Number(input.getAttribute('data-autocomplete-min') || 3);
    var controller = null;
    input.addEventListener(
      'input',
      debounce(function () {
        var q = input.value.trim();
        if (q.length < min) return;
        if (controller) controller.abort();
        controller = new AbortController();
        fetch(input.getAttribute('data-autocomplete') + encodeURIComponent(q), {
          signal: controller.signal,
          headers: { accept: 'application/json' },
        })
          .then(function (response) {
            return response.ok ? response.json() : null;
          })
          .then(function (body) {
            if (!body) return;
            var items = pick(body, input.getAttribute('data-autocomplete-items')) || [];
            var label = input.getAttribute('data-autocomplete-label');
            list.textContent = '';
            items.slice(0, 10).forEach(function (item) {
              var option = document.createElement('option');
              option.value = label ? String(pick(item, label) || '') : String(item);
              list.appendChild(option);
            });
          })
          .catch(function () {
            /* offline or aborted: the form still works without suggestions */
          });
      }, 200),
    );
  }
  document.addEventListener('DOMContentLoaded', function () {
    document.querySelectorAll('input[data-autocomplete]').forEach(enhanceAutocomplete);
  });
})();
