import type { SettingsService } from './settings.service.js';
import { ApiError } from './errors.js';

export interface PolicyFailure {
  error: string;
  message: string;
}

const RULE = 'error-password-policy-not-met';

/**
 * Checks a plain-text password against the `Accounts_Password_Policy_*`
 * settings (contract §6.8 rule 7). Returns every failed rule, in the order of
 * the contract; empty when the policy is off or met.
 */
export function passwordPolicyFailures(password: string, settings: SettingsService): PolicyFailure[] {
  if (!settings.get('Accounts_Password_Policy_Enabled')) return [];
  const failures: PolicyFailure[] = [];
  const fail = (suffix: string, message: string) => failures.push({ error: `${RULE}-${suffix}`, message });
  const length = [...password].length;
  const min = settings.get('Accounts_Password_Policy_MinLength');
  const max = settings.get('Accounts_Password_Policy_MaxLength');
  if (min > 0 && length < min) fail('minLength', 'The password does not meet the minimum length password policy.');
  if (max > 0 && length > max) fail('maxLength', 'The password does not meet the maximum length password policy.');
  if (settings.get('Accounts_Password_Policy_ForbidRepeatingCharacters')) {
    const allowed = settings.get('Accounts_Password_Policy_ForbidRepeatingCharactersCount');
    if (hasRunLongerThan([...password], allowed)) {
      fail('repeatingCharacters', 'The password contains repeating characters which is against the password policy.');
    }
  }
  if (settings.get('Accounts_Password_Policy_AtLeastOneLowercase') && !/\p{Ll}/u.test(password)) {
    fail('oneLowercase', 'The password does not contain at least one lowercase character which is against the password policy.');
  }
  if (settings.get('Accounts_Password_Policy_AtLeastOneUppercase') && !/\p{Lu}/u.test(password)) {
    fail('oneUppercase', 'The password does not contain at least one uppercase character which is against the password policy.');
  }
  if (settings.get('Accounts_Password_Policy_AtLeastOneNumber') && !/\p{Nd}/u.test(password)) {
    fail('oneNumber', 'The password does not contain at least one numerical character which is against the password policy.');
  }
  if (settings.get('Accounts_Password_Policy_AtLeastOneSpecialCharacter') && !/[^\p{L}\p{Nd}]/u.test(password)) {
    fail('oneSpecial', 'The password does not contain at least one special character which is against the password policy.');
  }
  return failures;
}

/** "More than `allowed` identical characters in a row". */
function hasRunLongerThan(chars: string[], allowed: number): boolean {
  let run = 1;
  for (let i = 1; i < chars.length; i++) {
    run = chars[i] === chars[i - 1] ? run + 1 : 1;
    if (run > allowed) return true;
  }
  return false;
}

/**
 * Throws the policy error when the policy is not met: `error` is the first
 * failed rule's message (as is, no code suffix), `errorType` the policy code,
 * `details` every failed rule.
 */
export function assertPasswordPolicy(password: string, settings: SettingsService): void {
  const failures = passwordPolicyFailures(password, settings);
  if (failures.length > 0) {
    throw new ApiError(400, { success: false, error: failures[0]!.message, errorType: RULE, details: failures });
  }
}
