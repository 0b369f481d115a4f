import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import { OidcConnection } from './oidc-connection.entity.js';

/** `oidc_connection` rows, in the active transaction when there is one (`TxHost`). */
@Injectable()
export class ConnectionsRepository {
  constructor(private readonly txHost: TxHost) {}

  private get repo() {
    return this.txHost.tx.getRepository(OidcConnection);
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

  /** An organization's own connection (docs/auth.md § Organization single sign-on), or null. */
  findByOrganization(organizationId: number): Promise<OidcConnection | null> {
    return this.repo.findOneBy({ organizationId });
  }

  list(): Promise<OidcConnection[]> {
    return this.repo.find({ order: { createdAt: 'ASC' } });
  }
}
