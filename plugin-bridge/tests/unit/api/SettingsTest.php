<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

final class SettingsTest extends StubTestCase {

	private const CURRENT = array(
		'service_url'          => 'https://rps.example',
		'api_token'            => 'rps_0123456789abcdefghijklmnopqrstuv',
		'event_signing_secret' => 'whsec_x',
		'store_connected'      => 'yes',
		'rest_key_id'          => 7,
		'connection_lost'      => 'no',
	);

	public function test_the_address_is_trimmed_and_loses_its_trailing_slash(): void {
		[ $clean, $errors ] = RPS_Settings::sanitize( array( 'service_url' => '  https://pay.example.com/rps/  ' ), self::CURRENT );
		$this->assertSame( array(), $errors );
		$this->assertSame( 'https://pay.example.com/rps', $clean['service_url'] );
	}

	public function test_an_address_that_is_not_http_is_refused_and_the_stored_one_kept(): void {
		foreach ( array( 'ftp://pay.example.com', 'javascript:alert(1)', 'pay.example.com', 'https://pay example.com' ) as $url ) {
			[ $clean, $errors ] = RPS_Settings::sanitize( array( 'service_url' => $url ), self::CURRENT );
			$this->assertCount( 1, $errors, $url );
			$this->assertSame( 'https://rps.example', $clean['service_url'], $url );
		}
	}

	public function test_an_empty_token_field_or_the_mask_keeps_the_stored_token_and_the_connection(): void {
		foreach ( array( '', RPS_Settings::masked_token( self::CURRENT['api_token'] ) ) as $posted ) {
			[ $clean, $errors ] = RPS_Settings::sanitize( array( 'service_url' => 'https://rps.example', 'api_token' => $posted ), self::CURRENT );
			$this->assertSame( array(), $errors );
			$this->assertSame( self::CURRENT, $clean );
		}
	}

	public function test_a_new_token_is_taken_and_forgets_the_store_connection_made_with_the_old_one(): void {
		[ $clean ] = RPS_Settings::sanitize( array( 'service_url' => 'https://rps.example', 'api_token' => " rps_newtokennewtokennewtokennewtoken1 \n" ), self::CURRENT );
		$this->assertSame( 'rps_newtokennewtokennewtokennewtoken1', $clean['api_token'] );
		$this->assertSame( 'no', $clean['store_connected'] );
		$this->assertSame( '', $clean['event_signing_secret'] );
	}

	public function test_a_token_with_spaces_or_too_short_is_refused(): void {
		foreach ( array( 'rps_ abc def', 'short' ) as $token ) {
			[ $clean, $errors ] = RPS_Settings::sanitize( array( 'service_url' => 'https://rps.example', 'api_token' => $token ), self::CURRENT );
			$this->assertCount( 1, $errors, $token );
			$this->assertSame( self::CURRENT['api_token'], $clean['api_token'] );
		}
	}

	public function test_the_secret_and_the_connection_state_are_never_taken_from_the_form(): void {
		[ $clean ] = RPS_Settings::sanitize( array( 'service_url' => 'https://rps.example', 'event_signing_secret' => 'mine', 'store_connected' => 'no', 'rest_key_id' => 1 ), self::CURRENT );
		$this->assertSame( self::CURRENT, $clean );
	}

	public function test_the_token_is_shown_by_its_last_four_characters_only(): void {
		$masked = RPS_Settings::masked_token( self::CURRENT['api_token'] );
		$this->assertStringEndsWith( 'stuv', $masked );
		$this->assertStringNotContainsString( 'rps_0123', $masked );
		$this->assertSame( '', RPS_Settings::masked_token( '' ) );
	}

	public function test_amounts_become_cents_without_a_float(): void {
		$this->assertSame( 1999, RPS_Money::to_cents( '19.99' ) );
		$this->assertSame( 1250, RPS_Money::to_cents( '12.5' ) );
		$this->assertSame( 1200, RPS_Money::to_cents( '12' ) );
		$this->assertSame( 1200, RPS_Money::to_cents( '12.000' ) );
		$this->assertSame( 19.99, RPS_Money::to_number( 1999 ) );
		$this->expectException( InvalidArgumentException::class );
		RPS_Money::to_cents( '12.345' );
	}
}
