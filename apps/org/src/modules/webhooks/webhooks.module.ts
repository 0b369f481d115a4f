import { Global, Module } from '@nestjs/common';
import { DeliveryStore } from './delivery-store.js';
import { DispatchSignal } from './dispatch-signal.js';
import { EndpointHealth } from './endpoint-health.js';
import { SubscriptionHint } from './subscription-hint.js';
import { WebhookDeliveriesController } from './webhook-deliveries.controller.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookEndpointsController } from './webhook-endpoints.controller.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WebhookPublisher } from './webhook-publisher.js';
import { WebhookRetention } from './webhook-retention.js';
import { WebhookSources } from './webhook-sources.js';

/**
 * Webhooks (docs/org.md § Webhooks): endpoints and their API, the fan-out every source calls
 * (`WebhookPublisher`, exported everywhere: the audit log publishes through it), the delivery
 * queue and its dispatcher, the retention sweeper.
 */
@Global()
@Module({
  controllers: [WebhookEndpointsController, WebhookDeliveriesController],
  providers: [
    DispatchSignal,
    WebhookPublisher,
    WebhookEndpointsRepository,
    WebhookEndpointsService,
    WebhookDeliveriesRepository,
    WebhookDeliveriesService,
    DeliveryStore,
    EndpointHealth,
    SubscriptionHint,
    WebhookDispatcher,
    WebhookRetention,
    WebhookSources,
  ],
  exports: [WebhookPublisher],
})
export class WebhooksModule {}
