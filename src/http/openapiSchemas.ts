import type { z } from 'zod';
import { auditResponse } from '../modules/audit/schemas';
import { creditNoteResponse, invoiceResponse, issuedInvoiceResponse } from '../modules/invoices/schemas';
import { customerResponse } from '../modules/customers/schemas';
import { followUpResponse } from '../modules/follow-ups/schemas';
import { importResponse, importRowResponse } from '../modules/imports/schemas';
import { paymentLinkResponse } from '../modules/links/schemas';
import { mandateListResponse, mandateResponse } from '../modules/mandates/schemas';
import { orderLineResponse, orderResponse } from '../modules/orders/schemas';
import { methodsResponse, paymentDetailResponse, paymentListItem, paymentResponse } from '../modules/payments/schemas';
import { portalSessionResponse } from '../modules/portal/schemas';
import { productResponse } from '../modules/products/schemas';
import { refundListResponse, refundResponse } from '../modules/refunds/schemas';
import { shopOrderViewResponse, shopResponse } from '../modules/store/schemas';
import { syncRunResponse } from '../modules/store/syncSchemas';
import { subscriptionSummaryResponse } from '../modules/reports/schemas';
import { nestedSubscriptionResponse, subscriptionResponse, subscriptionRuleResponse } from '../modules/subscriptions/schemas';

/**
 * The names of the API's resources in OpenAPI (`components/schemas`), for clients that generate
 * types from the document: each the zod schema its routes answer with. Where one named schema
 * holds another (a subscription's customer), the document refers to it by name. Every resource a
 * route answers with, or lists, must be here (test/unit/openapi-document.test.ts).
 */
export const namedSchemas: Record<string, z.ZodType> = {
  Customer: customerResponse,
  Mandate: mandateResponse,
  MandateList: mandateListResponse,
  PortalSession: portalSessionResponse,
  Subscription: subscriptionResponse,
  NestedSubscription: nestedSubscriptionResponse,
  SubscriptionRule: subscriptionRuleResponse,
  SubscriptionSummary: subscriptionSummaryResponse,
  SubscriptionInvoice: invoiceResponse,
  Invoice: issuedInvoiceResponse,
  CreditNote: creditNoteResponse,
  Shop: shopResponse,
  ShopOrder: shopOrderViewResponse,
  SyncRun: syncRunResponse,
  Product: productResponse,
  Payment: paymentResponse,
  PaymentDetail: paymentDetailResponse,
  PaymentListItem: paymentListItem,
  PaymentMethods: methodsResponse,
  Refund: refundResponse,
  RefundList: refundListResponse,
  PaymentLink: paymentLinkResponse,
  FollowUp: followUpResponse,
  Order: orderResponse,
  OrderLine: orderLineResponse,
  Import: importResponse,
  ImportRow: importRowResponse,
  Audit: auditResponse,
};
