import { csvRows, type CsvValue } from './csv-rows.js';

async function render(records: Record<string, CsvValue>[], columns: string[]): Promise<string> {
  let out = '';
  for await (const chunk of csvRows(records, columns)) out += chunk;
  return out;
}

describe('csvRows', () => {
  it('quotes fields per RFC 4180 only when needed, CRLF rows after a header', async () => {
    const csv = await render(
      [
        { a: 'plain', b: 'a,b', c: 'say "hi"', d: 'two\nlines' },
        { a: null, b: false, c: 1.5, d: { n: 1 } },
        { a: 'cr\rhere', b: true, c: undefined, d: '' },
      ],
      ['a', 'b', 'c', 'd'],
    );
    expect(csv).toBe(
      'a,b,c,d\r\n' +
        'plain,"a,b","say ""hi""","two\nlines"\r\n' +
        ',false,1.5,"{""n"":1}"\r\n' +
        '"cr\rhere",true,,\r\n',
    );
  });

  it('writes the header alone when there are no records', async () => {
    expect(await render([], ['x', 'y'])).toBe('x,y\r\n');
  });

  it('ends with the error of a failing source', async () => {
    async function* failing(): AsyncGenerator<Record<string, CsvValue>> {
      yield await Promise.resolve({ x: '1' });
      throw new Error('source broke');
    }
    const read = async () => {
      for await (const chunk of csvRows(failing(), ['x'])) void chunk;
    };
    await expect(read()).rejects.toThrow('source broke');
  });
});
