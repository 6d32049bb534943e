// Files cut short are told from complete ones: JSON documents that never close, CSVs whose last record is cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TruncatedSourceError } from '../../../core/import.ts';
import { csvTruncation, jsonTruncation, parseSourceJsonFile } from './truncation.ts';

test('JSON: a document whose brackets or last string never close is truncated, with the line and column', () => {
  assert.equal(jsonTruncation('{"a": [1, 2], "b": "x"}'), null);
  assert.equal(jsonTruncation('{"a": [1, 2], "b": "x"}\n'), null);
  assert.equal(jsonTruncation('{"a": "x}" , "b": "\\"]"}'), null, 'brackets and escaped quotes inside strings do not count');
  assert.equal(jsonTruncation('{"a": [1, 2'), 'line 1, column 12: the JSON document ends with 2 brackets still open');
  assert.equal(jsonTruncation('{\n  "a": "hal'), 'line 2, column 12: the JSON document ends inside a string');
  assert.equal(jsonTruncation('  \n'), 'the file is empty');
  assert.equal(jsonTruncation('{"a": [}'), null, 'a bracket closing the wrong one: malformed, not cut');
  assert.equal(jsonTruncation('{"a": [1]}}'), null);
  assert.throws(
    () => parseSourceJsonFile('{"a": [1', 'f.json'),
    (e: Error) => e instanceof TruncatedSourceError && /^f\.json is truncated: line 1, column 9: /.test(e.message),
  );
  assert.throws(
    () => parseSourceJsonFile('{"a": 1,}', 'f.json'),
    (e: Error) => e instanceof SyntaxError && /^f\.json is not valid JSON/.test(e.message),
  );
  assert.deepEqual(parseSourceJsonFile('{"a": 1}', 'f.json'), { a: 1 });
});

test('CSV: a last record inside an open quote, or with fewer cells than the header, is truncated', () => {
  const header = 'a,b,c\n';
  assert.equal(csvTruncation(`${header}1,2,3\n4,5,6\n`), null);
  assert.equal(csvTruncation(`${header}1,2,3\n4,5,6`), null, 'no final line break');
  assert.equal(csvTruncation(`${header}1,"two\nlines",3\n\n\n`), null, 'quoted line breaks and blank lines at the end');
  assert.equal(csvTruncation(`${header}1,"say ""hi""",3\r\n`), null, 'escaped quotes, CRLF');
  assert.equal(csvTruncation(`${header}1,2,3\n4,"cut her`), 'line 3: the last record ends inside a quoted field');
  assert.equal(csvTruncation(`${header}1,"a\nb",3\n4,"x""`), 'line 4: the last record ends inside a quoted field');
  assert.equal(csvTruncation(`${header}1,2,3\n4,5`), 'line 3: the last record has 2 of the 3 cells');
  assert.equal(csvTruncation(`${header}1,2,3\n4,5\n\n`), 'line 3: the last record has 2 of the 3 cells', 'blank lines after it');
  assert.equal(csvTruncation(`${header}1,2\n4,5,6\n`), null, 'a short row before the last is the parser’s warning, not a cut');
  assert.equal(csvTruncation(''), 'line 1: the file is empty');
  assert.equal(csvTruncation('a,b,c'), null, 'a header alone');
});
