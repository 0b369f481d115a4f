import { Module } from '@nestjs/common';
import { StorageModule } from '../storage/storage.module.js';
import { PriceTable } from './price-table.js';

/** The model price table (cost of observations sent without one). */
@Module({ imports: [StorageModule], providers: [PriceTable], exports: [PriceTable] })
export class PricingModule {}
