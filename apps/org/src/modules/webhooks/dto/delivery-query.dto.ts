import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIsoInstant, MayBeAbsent, PageCursorField, PageLimitField, ToList } from '@wp/http';
import { ArrayMaxSize, IsIn } from 'class-validator';
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

  @PageLimitField()
  limit?: number;

  @PageCursorField()
  cursor?: string;
}
