import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dayNumber, isoFromDayNumber, parseIrccDate, parseIrccTimestamp } from './ircc-dates.ts';

test('every spelling of a timestamp seen in the real feed is read as UTC', () => {
  const cases: [string, string, string][] = [
    ['August 24, 2025 at 23:43:05 UTC', '2025-12-17', '2025-08-24T23:43:05Z'],
    ['October 18, 2025 at  7:18:52 UTC', '2025-12-15', '2025-10-18T07:18:52Z'],
    ['March 05, 2025 at 05:10:48', '2025-12-08', '2025-03-05T05:10:48Z'],
    ['May 26 2025 at 12:28:38 UTC', '2025-11-28', '2025-05-26T12:28:38Z'],
    ['March 02. 2024 at 01:58:34 UTC', '2024-11-12', '2024-03-02T01:58:34Z'],
    ['September 30, 2023 at 04:22:17 AM UTC', '2023-10-25', '2023-09-30T04:22:17Z'],
    ['July 04, 2023 at 19:36:18 UTC ', '2023-08-15', '2023-07-04T19:36:18Z'],
    ['June 19, 2023 06:41:05 UTC', '2023-07-06', '2023-06-19T06:41:05Z'],
    ['May 19,2022 06:48:41 UTC', '2023-03-23', '2022-05-19T06:48:41Z'],
    ['December 12, 2022, at 10:48:12 UTC', '2023-03-01', '2022-12-12T10:48:12Z'],
    ['June 22, 2021 at 20:19:59 PM UTC', '2021-11-24', '2021-06-22T20:19:59Z'],
    ['October 25, 2023 at 15:48:39 AM UTC', '2023-10-25', '2023-10-25T15:48:39Z'],
    ['January 23, 2025 at 2025-01-23 15:30:04 UTC', '2025-01-23', '2025-01-23T15:30:04Z'],
    ['May 31, 2024 at12:48:30 UTC', '2024-05-31', '2024-05-31T12:48:30Z'],
    [' January 17, 2018 at 12:33:00 UTC', '2018-01-24', '2018-01-17T12:33:00Z'],
    ['November 1, 2017, at 12:55:44 UTC', '2017-11-01', '2017-11-01T12:55:44Z'],
    ['March 23,2023 12:27:59 UTC', '2023-03-23', '2023-03-23T12:27:59Z'],
    ['April 22, 2023 07:46:58 PM UTC', '2023-04-26', '2023-04-22T19:46:58Z'],
    ['April 22, 2023 12:10:00 AM UTC', '2023-04-26', '2023-04-22T00:10:00Z'],
  ];
  for (const [text, reference, expected] of cases) assert.equal(parseIrccTimestamp(text, reference), expected, text);
});

test('a timestamp without a year takes the latest year not after its round', () => {
  // Round 208 (2021-10-27) has "October 7 at 16:38:21 UTC".
  assert.equal(parseIrccTimestamp('October 7 at 16:38:21 UTC', '2021-10-27'), '2021-10-07T16:38:21Z');
  // A December cut-off for a January round belongs to the previous year.
  assert.equal(parseIrccTimestamp('December 30 at 10:00:00 UTC', '2022-01-05'), '2021-12-30T10:00:00Z');
  assert.throws(() => parseIrccTimestamp('October 7 at 16:38:21 UTC'), /without a year/);
});

test('malformed timestamps and dates are errors, not guesses', () => {
  for (const bad of [
    '',
    'yesterday',
    'Octember 7, 2021 at 10:00:00 UTC',
    'February 30, 2023 at 10:00:00 UTC',
    'March 1, 2023 at 24:00:00 UTC',
    'March 1, 2023 at 10:61:00 UTC',
    'January 23, 2025 at 2025-01-24 15:30:04 UTC',
  ]) {
    assert.throws(() => parseIrccTimestamp(bad, '2025-01-30'), RangeError, bad);
  }
  assert.equal(parseIrccDate('December 14, 2025'), '2025-12-14');
  assert.equal(parseIrccDate('May 4, 2017'), '2017-05-04');
  assert.throws(() => parseIrccDate('December 14'), RangeError);
  assert.throws(() => parseIrccDate('February 29, 2023'), RangeError);
});

test('day numbers round-trip and know the calendar', () => {
  assert.equal(dayNumber('1970-01-01'), 0);
  assert.equal(dayNumber('2024-03-01') - dayNumber('2024-02-28'), 2);
  assert.equal(isoFromDayNumber(dayNumber('2025-12-17')), '2025-12-17');
  assert.throws(() => dayNumber('2023-02-29'), RangeError);
});

test('the live feed\'s new spellings: ordinal days, abbreviated months, no "at", odd spaces, time zone words', () => {
  const cases: [string, string | undefined, string][] = [
    ['July 3rd 2026 at 21:35:13 UTC', undefined, '2026-07-03T21:35:13Z'],
    ['July 1st, 2026 at 21:35:13 UTC', undefined, '2026-07-01T21:35:13Z'],
    ['June 22nd 2026 21:35:13 UTC', undefined, '2026-06-22T21:35:13Z'],
    ['August 21st, 2026 at 08:00:00', undefined, '2026-08-21T08:00:00Z'],
    ['Sept. 21, 2025 at 21:35:13 UTC', undefined, '2025-09-21T21:35:13Z'],
    ['Sep 2 2025 21:35:13', undefined, '2025-09-02T21:35:13Z'],
    ['Jan. 5th 2026 at 9:05 p.m. UTC', undefined, '2026-01-05T21:05:00Z'],
    ['July\u00a03rd,\u00a02026\u00a0at\u00a021:35:13\u00a0UTC', undefined, '2026-07-03T21:35:13Z'],
    ['July  3rd  2026   at 21:35:13\u202fUTC', undefined, '2026-07-03T21:35:13Z'],
    ['\u200bJuly 3, 2026 at 21:35:13 UTC\t', undefined, '2026-07-03T21:35:13Z'],
    ['July 3, 2026 at 21:35:13 GMT', undefined, '2026-07-03T21:35:13Z'],
    ['July 3, 2026 at 21:35:13 (UTC)', undefined, '2026-07-03T21:35:13Z'],
    ['July 3, 2026 at 21:35:13 Coordinated Universal Time', undefined, '2026-07-03T21:35:13Z'],
    ['July 3, 2026 at 17:35:13 EDT', undefined, '2026-07-03T21:35:13Z'],
    ['January 3, 2026 at 16:35:13 EST', undefined, '2026-01-03T21:35:13Z'],
    ['July 3, 2026 at 17:35:13 Eastern Time', undefined, '2026-07-03T21:35:13Z'],
    ['January 3, 2026 at 4:35:13 PM ET', undefined, '2026-01-03T21:35:13Z'],
    ['July 3, 2026 at 21:35:13 +00:00', undefined, '2026-07-03T21:35:13Z'],
    ['July 3, 2026 at 23:35:13 UTC+2', undefined, '2026-07-03T21:35:13Z'],
    ['Friday, July 3rd, 2026 at 21:35:13 UTC', undefined, '2026-07-03T21:35:13Z'],
    ['3 July 2026 21:35:13 UTC', undefined, '2026-07-03T21:35:13Z'],
    ['2026-07-03T21:35:13Z', undefined, '2026-07-03T21:35:13Z'],
    ['2026-07-03 21:35:13.000 UTC', undefined, '2026-07-03T21:35:13Z'],
    ['July 3rd at 21:35:13 UTC', '2026-07-10', '2026-07-03T21:35:13Z'],
    // Eastern time across midnight UTC, and the day the clocks change (2026-03-08: 2 a.m. EST → 3 a.m. EDT).
    ['December 31, 2025 at 11:30:00 PM ET', undefined, '2026-01-01T04:30:00Z'],
    ['March 8, 2026 at 1:30:00 AM ET', undefined, '2026-03-08T06:30:00Z'],
    ['March 8, 2026 at 3:30:00 AM ET', undefined, '2026-03-08T07:30:00Z'],
  ];
  for (const [text, reference, expected] of cases) assert.equal(parseIrccTimestamp(text, reference), expected, JSON.stringify(text));
  for (const [text, expected] of [
    ['Dec. 14th, 2025', '2025-12-14'],
    ['Sept 14 2025', '2025-09-14'],
    ['14 December 2025', '2025-12-14'],
    ['December\u00a014,\u00a02025', '2025-12-14'],
    ['2025-12-14', '2025-12-14'],
  ]) {
    assert.equal(parseIrccDate(text), expected, JSON.stringify(text));
  }
  assert.equal(parseIrccDate('December 14', '2026-01-02'), '2025-12-14', 'a missing year from the round');
});

test('still errors, not guesses: unknown words and zones, two dates that disagree, impossible days', () => {
  for (const bad of [
    'July 3rd 2026 at 21:35:13 CEST',
    'Ju 3 2026 at 21:35:13 UTC',
    'July 32nd 2026 at 21:35:13 UTC',
    'July 3rd 2026 at 21:35:13 UTC and some',
    'July 3 2026 August 4 at 10:00:00',
    'July 3 2026 at 10:00:00 11:00:00',
    'July 3 2026',
    '21:35:13 UTC',
  ]) {
    assert.throws(() => parseIrccTimestamp(bad, '2026-07-10'), RangeError, bad);
  }
  assert.throws(() => parseIrccDate('December 14, 2025 at 10:00:00'), /with a time/);
});
