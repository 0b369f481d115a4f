import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIsoInstant, MayBeAbsent, ToInt, ToList } from '@wp/http';
import { ArrayMaxSize, IsIn, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { WEBHOOK_EVENT_TYPES } from '@wp/contracts';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../webhook-tables.js';

/** `GET …/webhook_endpoints/{id}/deliveries`: filters and cursor paging. */
export class DeliveryQueryDto {
  @ApiPropertyOptional({
    description: 'Comma list of statuses.',
    enum: DELIVERY_STATUSES,
    isArray: true,
  })
  @MayBeAbsent()
  @ToList()
  @ArrayMaxSize(DELIVERY_STATUSES.length)
  @IsIn(DELIVERY_STATUSES, {
    each: true,
    message: `each status must be one of ${DELIVERY_STATUSES.join(', ')}`,
  })
  status?: DeliveryStatus[];

  @ApiPropertyOptional({
    description: 'Comma list of event types.',
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
  })
  @MayBeAbsent()
  @ToList()
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: 'each event_type must be a known event type' })
  event_type?: string[];

  @ApiPropertyOptional({ description: 'Deliveries queued at or after this instant (ISO 8601).' })
  @MayBeAbsent()
  @IsIsoInstant()
  since?: string;

  @ApiPropertyOptional({ description: 'Page size, 1–100.', default: 50 })
  @MayBeAbsent()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: '`meta.next_cursor` of the previous page.' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(200)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'must be a cursor from a previous page' })
  cursor?: string;
}
