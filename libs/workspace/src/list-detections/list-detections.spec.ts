import { InMemoryReadModel } from '../testing/in-memory-read-model';
import { ListDetections } from './list-detections';

describe('ListDetections', () => {
  it('lists the first page, and refuses a cursor no page issued', async () => {
    const readModel = new InMemoryReadModel();
    readModel.addDetection('det-1');
    const list = new ListDetections(readModel);
    await expect(list.execute({})).resolves.toMatchObject({
      items: [expect.objectContaining({ id: 'det-1' })],
      nextCursor: null,
      paged: false,
    });
    await expect(list.execute({ cursor: 'nonsense' })).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
  });
});
