<?php
/**
 * The plugin inside a stub WordPress, served by `php -S` for the end-to-end test. The stub state
 * (options, orders) is kept in the JSON file named by RPS_E2E_STATE between requests.
 *
 *   POST /e2e/checkout?order=N   runs the gateway's process_payment(N), as WooCommerce does at checkout
 *   POST /wc-api/rps_payment/    the plugin's callback, as WooCommerce routes it
 */

require_once dirname( __DIR__ ) . '/bootstrap.php';

$state_file = (string) getenv( 'RPS_E2E_STATE' );
RPS_Stub_State::load( $state_file );
$path = (string) parse_url( (string) $_SERVER['REQUEST_URI'], PHP_URL_PATH );

/** @param array<string, mixed> $body */
function rps_e2e_answer( int $status, array $body, string $state_file ): void {
	RPS_Stub_State::save( $state_file );
	http_response_code( $status );
	header( 'Content-Type: application/json' );
	echo json_encode( $body );
}

try {
	if ( '/e2e/checkout' === $path ) {
		$result = ( new RPS_Gateway() )->process_payment( (int) ( $_GET['order'] ?? 0 ) );
		rps_e2e_answer( 200, $result + array( 'notices' => RPS_Stub_State::$notices ), $state_file );
	} elseif ( '/wc-api/rps_payment/' === $path ) {
		RPS_Callback::handle_request();
	} else {
		rps_e2e_answer( 404, array( 'error' => 'no such page' ), $state_file );
	}
} catch ( RPS_Stub_Exit $exit ) {
	rps_e2e_answer( $exit->status, $exit->json ?? array(), $state_file );
}
