import { lookAlikeProblem } from './look-alikes.js';

describe('look-alike usernames (UTS 39 through ENSIP-15)', () => {
  it.each([
    [
      'a Cyrillic a among Latin letters',
      '\u0430da@example.com',
      /mixes letters of different scripts/,
    ],
    ['a Greek omicron in a Latin name', 'b\u03bfb@example.com', /mixes letters/],
    ['a Cyrillic word that reads as Latin', '\u0430\u0440\u0435@example.com', /another script/],
    ['a zero-width space', 'ada\u200b@example.com', /invisible/],
    ['a right-to-left override', 'ada\u202e@example.com', /invisible/],
    ['a mixed-script domain label', 'ada@\u0435xample.com', /domain mixes/],
    ['Cyrillic and Latin across punctuation', '\u0430\u0434\u0430.smith@example.com', /mixes/],
  ])('refuses %s', (_, value, problem) => {
    expect(lookAlikeProblem(value)).toMatch(problem);
  });

  it.each([
    ['plain ASCII with punctuation', "o'brien+tag_x--y@example.com"],
    ['fullwidth letters (a spelling, caught by the key)', '\uff41da@example.com'],
    ['accented Latin, decomposed', 'jose\u0301@example.com'],
    ['a whole Cyrillic name', '\u0434\u043c\u0438\u0442\u0440\u0438\u0439@example.com'],
    ['a whole Greek name', '\u03bd\u03af\u03ba\u03bf\u03c2@example.com'],
    ['Japanese with Latin', 'taro\u5c71\u7530@example.jp'],
    ['an internationalized domain', 'ada@b\u00fccher.de'],
    ['a phone number', '+14155550100'],
  ])('accepts %s', (_, value) => {
    expect(lookAlikeProblem(value)).toBeNull();
  });
});
