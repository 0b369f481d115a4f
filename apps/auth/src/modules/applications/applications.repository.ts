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

  /** Marks an active application revoked; the row, or null when none is active with that id. */
  async revoke(id: string): Promise<ClientApplication | null> {
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'now()' })
      .where('id = :id AND revoked_at IS NULL', { id })
      .execute();
    if (!result.affected) return null;
    return this.repo.findOneBy({ id });
  }

  /**
   * Sets (or with nulls clears) an active application's passkey relying party
   * (docs/auth.md § Passkeys). @returns false when no active application has that id
   */
  async setWebauthn(id: string, rpId: string | null, origins: string[] | null): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({ webauthnRpId: rpId, webauthnOrigins: origins })
      .where('id = :id AND revoked_at IS NULL', { id })
      .execute();
    return Boolean(result.affected);
  }

  findActive(): Promise<ClientApplication[]> {
    return this.repo.find({ where: { revokedAt: IsNull() }, order: { createdAt: 'ASC' } });
  }
}
