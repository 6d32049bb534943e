import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asOfIsFixed, msUntilNextTorontoDay, resolveAsOf, torontoToday } from './as-of.ts';

test('today is the calendar date in Toronto, across standard and daylight time', () => {
  assert.equal(torontoToday(new Date('2025-12-17T04:59:59Z')), '2025-12-16', '23:59:59 EST');
  assert.equal(torontoToday(new Date('2025-12-17T05:00:00Z')), '2025-12-17', '00:00 EST');
  assert.equal(torontoToday(new Date('2025-07-01T03:59:00Z')), '2025-06-30', '23:59 EDT');
  assert.equal(torontoToday(new Date('2025-07-01T04:00:00Z')), '2025-07-01', '00:00 EDT');
});

test('PDI_DRAWS_AS_OF fixes the as-of date; a bad value is refused; unset means today in Toronto', () => {
  const now = new Date('2025-12-17T03:00:00Z');
  assert.equal(resolveAsOf({ PDI_DRAWS_AS_OF: '2024-05-01' }, now), '2024-05-01');
  assert.equal(resolveAsOf({ PDI_DRAWS_AS_OF: ' 2024-05-01 ' }, now), '2024-05-01');
  assert.equal(resolveAsOf({}, now), '2025-12-16');
  assert.equal(resolveAsOf({ PDI_DRAWS_AS_OF: '' }, now), '2025-12-16');
  assert.throws(() => resolveAsOf({ PDI_DRAWS_AS_OF: '2025-02-30' }, now), /PDI_DRAWS_AS_OF must be a date/);
  assert.throws(() => resolveAsOf({ PDI_DRAWS_AS_OF: '17/12/2025' }, now), /PDI_DRAWS_AS_OF/);
  assert.equal(asOfIsFixed({ PDI_DRAWS_AS_OF: '2024-05-01' }), true);
  assert.equal(asOfIsFixed({}), false);
});

test('the next Toronto midnight, also on the days the clocks change', () => {
  const hour = 3_600_000;
  const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) <= 1000, `${actual} vs ${expected}`);
  close(msUntilNextTorontoDay(new Date('2025-12-17T04:00:00Z')), hour);
  close(msUntilNextTorontoDay(new Date('2025-03-09T04:00:00Z')), hour); // 23:00 EST before the spring change
  close(msUntilNextTorontoDay(new Date('2025-11-02T04:00:00Z')), 25 * hour); // midnight EDT starting a 25-hour day
  close(msUntilNextTorontoDay(new Date('2025-11-01T04:00:30Z')), 24 * hour - 30_000);
});
