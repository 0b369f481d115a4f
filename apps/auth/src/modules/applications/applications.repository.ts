import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { ClientApplication } from './client-application.entity.js';

@Injectable()
export class ApplicationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(ClientApplication);
  }

  /** Inserts unless an application with the same key hash exists; returns the stored row. */
  async insertIfAbsent(
    app: Pick<ClientApplication, 'id' | 'name' | 'keyHash' | 'keyPrefix'>,
  ): Promise<ClientApplication> {
    await this.repo
      .createQueryBuilder()
      .insert()
      .values({ ...app, revokedAt: null })
      .orIgnore()
      .execute();
    return this.repo.findOneByOrFail({ keyHash: app.keyHash });
  }

  findActive(): Promise<ClientApplication[]> {
    return this.repo.find({ where: { revokedAt: IsNull() }, order: { createdAt: 'ASC' } });
  }
}
