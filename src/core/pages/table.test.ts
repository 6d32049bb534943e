import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { html } from './html.ts';
import { numericColumn, recordTable } from './table.ts';

/** The markup without the white space between tags. */
const flat = (markup: string) => markup.replace(/>\s+</g, '><').replace(/\s+</g, '<').replace(/>\s+/g, '>');

describe('recordTable', () => {
  const rows = [
    { name: 'A & B', value: 12 },
    { name: 'C', value: 3 },
  ];

  it('draws a caption, the column headers and one row per record with its first cell as the row header, in a scrolling box', () => {
    const out = recordTable({ caption: 'Totals', columns: ['Name', 'Value'], rows, cells: (r) => [r.name, r.value] });
    assert.equal(
      flat(out.text),
      '<div class="table-scroll"><table class="data"><caption>Totals</caption>' +
        '<thead><tr><th scope="col">Name</th><th scope="col">Value</th></tr></thead>' +
        '<tbody><tr><th scope="row">A &amp; B</th><td>12</td></tr><tr><th scope="row">C</th><td>3</td></tr></tbody></table></div>',
    );
  });

  it('puts a column’s class on its header and cells; a hidden caption, more classes, another row header, no box', () => {
    const out = recordTable({
      caption: 'Ranked',
      hiddenCaption: true,
      class: 'narrow',
      noScroll: true,
      columns: [numericColumn('Rank'), 'Name', numericColumn(html`<abbr title="dollars">$</abbr>`)],
      rows,
      rowHeader: 1,
      cells: (r, i) => [i + 1, html`<a href="/x">${r.name}</a>`, r.value],
    });
    assert.equal(
      flat(out.text),
      '<table class="data narrow"><caption class="visually-hidden">Ranked</caption>' +
        '<thead><tr><th scope="col" class="num">Rank</th><th scope="col">Name</th><th scope="col" class="num"><abbr title="dollars">$</abbr></th></tr></thead>' +
        '<tbody><tr><td class="num">1</td><th scope="row"><a href="/x">A &amp; B</a></th><td class="num">12</td></tr>' +
        '<tr><td class="num">2</td><th scope="row"><a href="/x">C</a></th><td class="num">3</td></tr></tbody></table>',
    );
  });
});
