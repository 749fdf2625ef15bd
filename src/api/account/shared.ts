/**
 * What several account operations share (docs/contract.md, Statement and balance): the resource's
 * tag. The account fields, the statement entry and the deposit body are in schemas.ts.
 */
export const TAG = 'Account';
