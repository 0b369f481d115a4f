import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OidcConnection } from './oidc-connection.entity.js';

/** `oidc_connection` rows. */
@Injectable()
export class ConnectionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(OidcConnection);
  }

  /** Inserts; false when the slug is taken (unique violation, nothing written). */
  async insert(connection: OidcConnection): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .insert()
      .values(connection)
      .orIgnore()
      .returning(['id'])
      .execute();
    return (result.raw as unknown[]).length > 0;
  }

  async update(id: string, changes: Partial<OidcConnection>): Promise<OidcConnection | null> {
    const result = await this.repo.update({ id }, { ...changes, updatedAt: new Date() });
    return result.affected ? this.repo.findOneBy({ id }) : null;
  }

  findById(id: string): Promise<OidcConnection | null> {
    return this.repo.findOneBy({ id });
  }

  findBySlug(slug: string): Promise<OidcConnection | null> {
    return this.repo.findOneBy({ slug });
  }

  list(): Promise<OidcConnection[]> {
    return this.repo.find({ order: { createdAt: 'ASC' } });
  }
}
