/** The authenticated caller: every query is scoped by `account.id`. */
export interface Account {
  id: string;
  name: string;
  bookkeeping_system: string | null;
  /** Opaque reference used in public URLs (the provider webhook), so ids never appear there. */
  public_ref: string;
}
