<?php
defined( 'ABSPATH' ) || exit;

/**
 * The service signs every event: `X-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.<raw body>">` with
 * the account's event secret. Checked on the raw bytes, in constant time, and only when recent.
 */
final class RPS_Signature {

	public const TOLERANCE_SECONDS = 300;

	public static function is_valid( string $raw_body, string $header, string $secret, ?int $now = null ): bool {
		if ( '' === $secret || '' === $header ) {
			return false;
		}
		$parts = array();
		foreach ( explode( ',', $header ) as $part ) {
			$pair = explode( '=', trim( $part ), 2 );
			if ( 2 === count( $pair ) ) {
				$parts[ $pair[0] ] = $pair[1];
			}
		}
		$timestamp = $parts['t'] ?? '';
		$given     = $parts['v1'] ?? '';
		if ( ! ctype_digit( $timestamp ) || ! preg_match( '/^[0-9a-f]{64}$/', $given ) ) {
			return false;
		}
		if ( abs( ( $now ?? time() ) - (int) $timestamp ) > self::TOLERANCE_SECONDS ) {
			return false; // An old event replayed.
		}
		$expected = hash_hmac( 'sha256', $timestamp . '.' . $raw_body, $secret );
		return hash_equals( $expected, $given );
	}
}
