// The inventory-item, lab, user and health API tests' helpers: all shared, defined in test/helpers/ (no tests here).

export { addItem, archiveInstance, bAdminTokenInA, dbState, getItemJson, newToken, revokedToken } from '../../helpers/data.js';
export { expectError, expectValidation, SNAKE_RE } from '../../helpers/errors.js';
export { eventCount, eventsAfter } from '../../helpers/events.js';
export {
  adminSummary,
  appUrlOf,
  expectedLegacyItem,
  expectedMigratedItem,
  expectItemShape,
  expectLabShape,
  expectUserShape,
  INSTANCE_KEYS,
  ITEM_KEYS,
  keysOf,
  LAB_KEYS,
  labJson,
  linkPages,
  memberSummary,
  UNKNOWN_ID,
  USER_KEYS,
  UUID_RE,
} from '../../helpers/shapes.js';
