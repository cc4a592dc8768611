import type { MollieFake } from '../../fakes/mollie/fake';

/** A customer at "Mollie" with a valid SEPA mandate, made there by another integration; answers both ids. */
export async function customerWithMandate(fake: MollieFake, name = 'Anna de Vries'): Promise<{ customerId: string; mandateId: string }> {
  const customerId = fake.seedCustomer({ name, email: 'anna@example.nl' });
  const answer = await fake.handle({
    method: 'POST',
    path: `/v2/customers/${customerId}/mandates`,
    idempotencyKey: undefined,
    body: { method: 'directdebit', consumerName: name, consumerAccount: 'NL91ABNA0417164300', signatureDate: '2025-01-02' },
  });
  if ('lost' in answer) throw new Error('the fake lost the answer to a mandate made for a test');
  return { customerId, mandateId: String((answer.body as { id: string }).id) };
}
