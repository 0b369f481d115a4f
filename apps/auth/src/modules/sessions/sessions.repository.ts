import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { RefreshTokenFamily } from './refresh-token-family.entity.js';

@Injectable()
export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(family: RefreshTokenFamily, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).insert(RefreshTokenFamily, family);
  }
}
