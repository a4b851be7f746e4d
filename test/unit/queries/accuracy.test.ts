/**
 * The CI gate of the question set (test/queries): at least 300 questions over the Sample data shop
 * and the support desk, execution accuracy at least 90%, and no wrong answer without its reading.
 */
import { describe, expect, it } from 'vitest';
import { QUESTION_SET, measureAccuracy } from '../../queries/accuracy';

describe('question set accuracy', () => {
  it('answers at least 90% of 300+ questions with the expected rows, every wrong one with its reading', async () => {
    expect(QUESTION_SET.length).toBeGreaterThanOrEqual(300);
    const report = await measureAccuracy();
    const wrong = report.wrong.map((w) => `${w.question.q} :: ${w.detail}`).join('\n');
    expect(report.accuracy, wrong).toBeGreaterThanOrEqual(0.9);
    expect(report.wrongWithoutReading).toBe(0);
  }, 120_000);
});
