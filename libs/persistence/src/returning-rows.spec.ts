import { returningRows } from './returning-rows.js';

describe('returningRows', () => {
  it('unwraps the [rows, rowCount] answer TypeORM gives for UPDATE/DELETE … RETURNING', async () => {
    await expect(returningRows(Promise.resolve([[{ id: 'a' }], 1]))).resolves.toEqual([
      { id: 'a' },
    ]);
    await expect(returningRows(Promise.resolve([[], 0]))).resolves.toEqual([]);
  });

  it('passes plain row arrays (SELECT, INSERT) through', async () => {
    await expect(returningRows(Promise.resolve([{ id: 'a' }, { id: 'b' }]))).resolves.toEqual([
      { id: 'a' },
      { id: 'b' },
    ]);
  });
});
