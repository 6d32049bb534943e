// The chat panel of /chat, enhanced: a message goes to POST /api/api/ai/chat/ (the API's chat, the same engine as the
// form's POST /chat), the reply is added to the conversation, and the table is swapped in place from GET /chat/table
// (drawn by the server, with its RRID checks). Without this script, or when the API cannot be reached, the form posts
// as it is and the page reloads with the reply.
(function () {
  'use strict';
  function entry(log, className, who, text) {
    var item = document.createElement('li');
    item.className = className;
    var name = document.createElement('span');
    name.className = 'who';
    name.textContent = who;
    item.appendChild(name);
    var body = document.createElement('p');
    body.textContent = text;
    item.appendChild(body);
    log.appendChild(item);
    return item;
  }
  function enhance(form) {
    var log = document.querySelector('[data-chat-log]');
    var table = document.getElementById('chat-table');
    var session = form.querySelector('input[name="session_id"]');
    var message = form.querySelector('textarea[name="message"]');
    var button = form.querySelector('button[type="submit"]');
    if (!log || !table || !session || !message) return;
    var busy = false;
    form.addEventListener('submit', function (event) {
      var text = message.value.trim();
      if (!text || busy) return;
      event.preventDefault();
      busy = true;
      if (button) button.disabled = true;
      var payload = { message: text };
      if (session.value) payload.session_id = session.value;
      fetch('/api/api/ai/chat/', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(payload),
      })
        .then(
          function (response) {
            return response.json().then(function (body) {
              return { ok: response.ok, status: response.status, body: body };
            });
          },
          function () {
            // The API cannot be reached: post the form as it is.
            busy = false;
            form.submit();
            return null;
          },
        )
        .then(function (answer) {
          if (!answer) return;
          entry(log, 'you', 'You', text);
          if (!answer.ok) {
            entry(
              log,
              'assistant error',
              'Table builder',
              (answer.body && answer.body.error) || 'The request failed (' + answer.status + ').',
            );
            return;
          }
          var reply = answer.body;
          session.value = reply.session_id;
          if (window.history && window.history.replaceState)
            window.history.replaceState(null, '', '/chat?session=' + encodeURIComponent(reply.session_id));
          var item = entry(log, 'assistant', 'Table builder', reply.response);
          if (reply.clarifications && reply.clarifications.length) {
            var list = document.createElement('ul');
            list.className = 'clarifications';
            reply.clarifications.forEach(function (question) {
              var li = document.createElement('li');
              li.textContent = question;
              list.appendChild(li);
            });
            item.appendChild(list);
          }
          if (reply.export && reply.export.url) {
            var p = document.createElement('p');
            var link = document.createElement('a');
            link.className = 'button secondary';
            link.href = reply.export.url;
            link.setAttribute('download', '');
            link.textContent = 'Download the table';
            p.appendChild(link);
            item.appendChild(p);
          }
          message.value = '';
          return fetch('/chat/table?session=' + encodeURIComponent(reply.session_id), { headers: { accept: 'text/html' } })
            .then(function (response) {
              return response.ok ? response.text() : null;
            })
            .then(function (markup) {
              // Markup drawn and escaped by the server (same origin); it carries no script.
              if (markup !== null) table.innerHTML = markup;
            })
            .catch(function () {
              /* the table is refreshed on the next reload */
            });
        })
        .then(function () {
          busy = false;
          if (button) button.disabled = false;
          message.focus();
        });
    });
  }
  document.addEventListener('DOMContentLoaded', function () {
    document.querySelectorAll('form[data-krt-chat]').forEach(enhance);
  });
})();
