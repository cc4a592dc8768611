<?php
defined( 'ABSPATH' ) || exit;

/**
 * Amounts as integer cents, parsed from WooCommerce's decimal strings without passing through a
 * float, so 19.99 stays 1999 whatever the platform's rounding.
 */
final class RPS_Money {

	/** "12.5", "12.50", "12" → 1250, 1250, 1200; anything that is not a plain amount is refused. */
	public static function to_cents( string $amount ): int {
		$amount = trim( $amount );
		if ( ! preg_match( '/^(\d+)(?:\.(\d{1,2})0*)?$/', $amount, $parts ) ) {
			throw new InvalidArgumentException( 'Not an amount with at most two decimals: ' . $amount );
		}
		return (int) $parts[1] * 100 + (int) str_pad( $parts[2] ?? '0', 2, '0' );
	}

	/** The JSON number the service takes: 1250 → 12.5 (at most two decimals, exact). */
	public static function to_number( int $cents ): float {
		return $cents / 100;
	}
}
