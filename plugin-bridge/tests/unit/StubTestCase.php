<?php

use PHPUnit\Framework\TestCase;

/** A fresh stub WordPress per test, with helpers to queue the service's answers. */
abstract class StubTestCase extends TestCase {

	protected const SERVICE = 'https://rps.example';
	protected const TOKEN   = 'rps_0123456789abcdefghijklmnopqrstuv';
	protected const SECRET  = 'whsec_test_secret_of_forty_characters_xx';

	protected function setUp(): void {
		RPS_Stub_State::reset();
		RPS_Stub_Filters::$callbacks = array();
		RPS_Stub_Shutdown::$callbacks = array();
		WC_Order::$lines_of          = array();
		RPS_Return::reset();
		RPS_Settings::update(
			array(
				'service_url'          => self::SERVICE,
				'api_token'            => self::TOKEN,
				'event_signing_secret' => self::SECRET,
				'store_connected'      => 'yes',
			)
		);
	}

	/** @param array<string, mixed> $body */
	protected static function answer( int $status, array $body ): void {
		RPS_Stub_State::$responses[] = array( 'response' => array( 'code' => $status ), 'body' => json_encode( $body ) );
	}

	/**
	 * Another request runs while the plugin waits for this answer (its own answers are queued after this one);
	 * then the answer arrives.
	 *
	 * @param array<string, mixed> $body
	 */
	protected static function meanwhile( Closure $other_request, int $status, array $body ): void {
		RPS_Stub_State::$responses[] = static function () use ( $other_request, $status, $body ): array {
			$other_request();
			return array( 'response' => array( 'code' => $status ), 'body' => json_encode( $body ) );
		};
	}

	/** The request ends: what the plugin left for WordPress's `shutdown` runs. */
	protected static function request_ends(): void {
		$callbacks                    = RPS_Stub_Shutdown::$callbacks;
		RPS_Stub_Shutdown::$callbacks = array();
		foreach ( $callbacks as $callback ) {
			$callback();
		}
	}

	protected static function no_answer(): void {
		RPS_Stub_State::$responses[] = new WP_Error( 'http_request_failed', 'cURL error 28: Operation timed out' );
	}

	/** @param array<string, mixed> $fields */
	protected static function order( array $fields = array() ): WC_Order {
		$order = new WC_Order(
			$fields + array(
				'id'        => 42,
				'order_key' => 'wc_order_abc123',
				'total'     => '19.99',
				'billing'   => array( 'first_name' => 'Anna', 'last_name' => 'Bakker', 'email' => 'Anna@Example.nl' ),
			)
		);
		$order->save();
		return $order;
	}

	/** @return array<string, mixed> the order as stored now */
	protected static function stored( int $id = 42 ): array {
		return RPS_Stub_State::$orders[ $id ];
	}

	/** @return array<string, mixed> the JSON body of the request made to a path */
	protected static function body_sent_to( string $method, string $path ): array {
		foreach ( RPS_Stub_State::$requests as $request ) {
			if ( $request['args']['method'] === $method && str_starts_with( $request['url'], self::SERVICE . $path ) ) {
				return json_decode( (string) $request['args']['body'], true );
			}
		}
		self::fail( "No $method $path was made" );
	}

	/** @return list<string> "METHOD path" of every request made */
	protected static function requests_made(): array {
		return array_map( static fn ( array $request ): string => $request['args']['method'] . ' ' . substr( $request['url'], strlen( self::SERVICE ) ), RPS_Stub_State::$requests );
	}
}
