<?php
/** WordPress functions the plugin calls, as far as it uses them. */

defined( 'ABSPATH' ) || define( 'ABSPATH', __DIR__ . '/' );
const HOUR_IN_SECONDS = 3600;

final class WP_Error {
	public function __construct( private string $code = '', private string $message = '' ) {}
	public function get_error_message(): string {
		return $this->message;
	}
	public function get_error_code(): string {
		return $this->code;
	}
}

final class RPS_Stub_Exit extends RuntimeException {
	/** @param array<string, mixed>|null $json */
	public function __construct( public readonly int $status, public readonly ?array $json = null ) {
		parent::__construct( 'exit ' . $status );
	}
}

/** What runs when the request ends (`shutdown`): a test ends a request with StubTestCase::request_ends(). */
final class RPS_Stub_Shutdown {
	/** @var list<callable> */
	public static array $callbacks = array();
}
/**
 * Every hook the plugin adds, in order, as "hook priority accepted-args callback": what PluginTest
 * compares with the wiring WordPress saw before the plugin's files were grouped by role.
 */
final class RPS_Stub_Hooks {
	/** @var list<string> */
	public static array $added = array();

	public static function describe( callable|array|string $callback ): string {
		if ( $callback instanceof Closure ) {
			return 'closure';
		}
		if ( is_array( $callback ) ) {
			return ( is_string( $callback[0] ) ? $callback[0] : get_class( $callback[0] ) ) . '::' . $callback[1];
		}
		return is_string( $callback ) ? $callback : 'callable';
	}
}
function add_action( string $hook, callable|array|string $callback, int $priority = 10, int $args = 1 ): bool {
	RPS_Stub_Hooks::$added[] = $hook . ' ' . $priority . ' ' . $args . ' ' . RPS_Stub_Hooks::describe( $callback );
	if ( 'shutdown' === $hook && is_callable( $callback ) ) {
		RPS_Stub_Shutdown::$callbacks[] = $callback;
	}
	return true;
}
/**
 * The plugin's own filters (`rps_…`, its extension points) run in tests, so a test can show that one
 * works; WordPress's and WooCommerce's hooks are not run (the tests call the plugin's handlers directly).
 */
final class RPS_Stub_Filters {
	/** @var array<string, list<array{0: callable, 1: int}>> hook => [callback, accepted args] */
	public static array $callbacks = array();
}
function add_filter( string $hook, callable|array|string $callback, int $priority = 10, int $args = 1 ): bool {
	RPS_Stub_Hooks::$added[] = $hook . ' ' . $priority . ' ' . $args . ' ' . RPS_Stub_Hooks::describe( $callback );
	if ( str_starts_with( $hook, 'rps_' ) && is_callable( $callback ) ) {
		RPS_Stub_Filters::$callbacks[ $hook ][] = array( $callback, $args );
	}
	return true;
}
function __( string $text, string $domain = 'default' ): string {
	return RPS_Stub_State::$translations[ $text ] ?? $text;
}
function number_format_i18n( float|int $number, int $decimals = 0 ): string {
	return number_format( (float) $number, $decimals, ',' === get_option( 'woocommerce_price_decimal_sep', '.' ) ? ',' : '.', '' );
}
function esc_html__( string $text, string $domain = 'default' ): string {
	return esc_html( __( $text, $domain ) );
}
function register_activation_hook( string $file, callable|array|string $callback ): void {
	add_action( 'activate_' . plugin_basename( $file ), $callback );
}
function plugin_basename( string $file ): string {
	return basename( dirname( $file ) ) . '/' . basename( $file );
}
function load_plugin_textdomain( string $domain, bool $deprecated = false, string $path = '' ): bool {
	RPS_Stub_Hooks::$added[] = 'load_plugin_textdomain ' . $domain . ' ' . $path;
	return true;
}
function is_admin(): bool {
	return RPS_Stub_State::$is_admin;
}
function wp_doing_ajax(): bool {
	return false;
}
final class WP_Post {
	public function __construct( public int $ID = 0 ) {}
}
function esc_html_e( string $text, string $domain = 'default' ): void {
	echo esc_html( $text );
}
function esc_html( string $text ): string {
	return htmlspecialchars( $text, ENT_QUOTES, 'UTF-8' );
}
function esc_attr( string $text ): string {
	return htmlspecialchars( $text, ENT_QUOTES, 'UTF-8' );
}
function esc_url( string $url ): string {
	return esc_url_raw( $url );
}
function esc_url_raw( string $url ): string {
	return (string) preg_replace( '/[^a-z0-9\-~+_.?#=!&;,\/:%@$|*\'()\[\]]/i', '', $url );
}
function sanitize_text_field( string $text ): string {
	return trim( (string) preg_replace( '/[\r\n\t ]+/', ' ', strip_tags( $text ) ) );
}
function sanitize_key( string $key ): string {
	return (string) preg_replace( '/[^a-z0-9_\-]/', '', strtolower( $key ) );
}
function wp_unslash( mixed $value ): mixed {
	return is_string( $value ) ? stripslashes( $value ) : $value;
}
function absint( mixed $value ): int {
	return abs( (int) $value );
}
function wp_json_encode( mixed $value ): string|false {
	return json_encode( $value );
}
function home_url( string $path = '' ): string {
	return RPS_Stub_State::$home_url . $path;
}
function add_query_arg( array $args, string $url ): string {
	return $url . ( str_contains( $url, '?' ) ? '&' : '?' ) . http_build_query( $args );
}
function get_current_user_id(): int {
	return RPS_Stub_State::$user_id;
}

function get_option( string $name, mixed $default = false ): mixed {
	return array_key_exists( $name, RPS_Stub_State::$options ) ? RPS_Stub_State::$options[ $name ] : $default;
}
function update_option( string $name, mixed $value, bool|string|null $autoload = null ): bool {
	RPS_Stub_State::$options[ $name ] = $value;
	return true;
}
/** As WordPress: false when the option exists (a unique key in the options table). */
function add_option( string $name, mixed $value = '', string $deprecated = '', bool|string $autoload = 'yes' ): bool {
	if ( array_key_exists( $name, RPS_Stub_State::$options ) ) {
		return false;
	}
	RPS_Stub_State::$options[ $name ] = $value;
	return true;
}
function delete_option( string $name ): bool {
	unset( RPS_Stub_State::$options[ $name ] );
	return true;
}
function get_transient( string $name ): mixed {
	return RPS_Stub_State::$transients[ $name ] ?? false;
}
function set_transient( string $name, mixed $value, int $expiration = 0 ): bool {
	RPS_Stub_State::$transients[ $name ]           = $value;
	RPS_Stub_State::$transient_expirations[ $name ] = $expiration;
	return true;
}
function delete_transient( string $name ): bool {
	unset( RPS_Stub_State::$transients[ $name ] );
	return true;
}

function is_wp_error( mixed $thing ): bool {
	return $thing instanceof WP_Error;
}
/**
 * The next queued answer in unit tests; real HTTP (PHP streams) when none is queued, as in the
 * end-to-end test against the running service.
 *
 * @param array<string, mixed> $args
 * @return array<string, mixed>|WP_Error
 */
function wp_remote_request( string $url, array $args = array() ): array|WP_Error {
	RPS_Stub_State::$requests[] = array( 'url' => $url, 'args' => $args );
	if ( array() !== RPS_Stub_State::$responses ) {
		$answer = array_shift( RPS_Stub_State::$responses );
		// A queued closure is another request that runs while this one waits for its answer, then answers it.
		return $answer instanceof Closure ? $answer() : $answer;
	}
	$headers = array();
	foreach ( $args['headers'] ?? array() as $name => $value ) {
		$headers[] = $name . ': ' . $value;
	}
	$context = stream_context_create(
		array(
			'http' => array(
				'method'        => $args['method'] ?? 'GET',
				'header'        => implode( "\r\n", $headers ),
				'content'       => $args['body'] ?? '',
				'timeout'       => $args['timeout'] ?? 5,
				'ignore_errors' => true,
				'follow_location' => 0,
			),
		)
	);
	$body = @file_get_contents( $url, false, $context ); // phpcs:ignore
	if ( false === $body ) {
		return new WP_Error( 'http_request_failed', 'could not connect' );
	}
	$status = 0;
	foreach ( $http_response_header as $line ) {
		if ( preg_match( '#^HTTP/\S+ (\d{3})#', $line, $match ) ) {
			$status = (int) $match[1];
		}
	}
	return array( 'response' => array( 'code' => $status ), 'body' => $body );
}
/** @param array<string, mixed>|WP_Error $response */
function wp_remote_retrieve_response_code( array|WP_Error $response ): int|string {
	return is_array( $response ) ? (int) ( $response['response']['code'] ?? 0 ) : '';
}
/** @param array<string, mixed>|WP_Error $response */
function wp_remote_retrieve_body( array|WP_Error $response ): string {
	return is_array( $response ) ? (string) ( $response['body'] ?? '' ) : '';
}
function wp_send_json( mixed $response, ?int $status = null ): never {
	throw new RPS_Stub_Exit( $status ?? 200, is_array( $response ) ? $response : null );
}
/** @var array<string, array{0: int, 1: string}> WP-Cron's scheduled events: hook => [first run, recurrence] */
$GLOBALS['rps_stub_cron'] = array();
function wp_next_scheduled( string $hook ): int|false {
	return $GLOBALS['rps_stub_cron'][ $hook ][0] ?? false;
}
function wp_schedule_event( int $timestamp, string $recurrence, string $hook ): bool {
	$GLOBALS['rps_stub_cron'][ $hook ] = array( $timestamp, $recurrence );
	return true;
}
/** WP-Cron's single events: [time, hook, args], in the order scheduled. */
$GLOBALS['rps_stub_single_events'] = array();
function wp_schedule_single_event( int $timestamp, string $hook, array $args = array() ): bool {
	$GLOBALS['rps_stub_single_events'][] = array( $timestamp, $hook, $args );
	return true;
}
function wp_clear_scheduled_hook( string $hook ): int {
	$had = isset( $GLOBALS['rps_stub_cron'][ $hook ] );
	unset( $GLOBALS['rps_stub_cron'][ $hook ] );
	return $had ? 1 : 0;
}
function get_query_var( string $name, mixed $default = '' ): mixed {
	return RPS_Stub_State::$query_vars[ $name ] ?? $default;
}
function current_user_can( string $capability, mixed ...$args ): bool {
	return RPS_Stub_State::$user_can && ! in_array( $capability, RPS_Stub_State::$denied_capabilities, true );
}
function admin_url( string $path = '' ): string {
	return RPS_Stub_State::$home_url . '/wp-admin/' . $path;
}

/** $wpdb as far as the store connector uses it: inserts get ids, deletes are recorded. */
final class RPS_Stub_Wpdb {
	public string $prefix = 'wp_';
	public string $options = 'wp_options';
	public int $insert_id = 0;
	/** @var list<string> the queries run, their values put in (by prepare) */
	public array $queries = array();
	/** What query() answers: the rows it touched. */
	public int $affected = 0;
	public function prepare( string $query, mixed ...$args ): string {
		return vsprintf( str_replace( array( '%s', '%d' ), array( "'%s'", '%d' ), $query ), $args );
	}
	public function esc_like( string $text ): string {
		return addcslashes( $text, '_%\\' );
	}
	public function query( string $query ): int {
		$this->queries[] = $query;
		return $this->affected;
	}
	/** @var list<array{0: string, 1: array<string, mixed>}> */
	public array $deleted = array();
	/** @param array<string, mixed> $data */
	public function insert( string $table, array $data, array $format = array() ): int {
		++$this->insert_id;
		return 1;
	}
	/** @param array<string, mixed> $where */
	public function delete( string $table, array $where, array $format = array() ): int {
		$this->deleted[] = array( $table, $where );
		return 1;
	}
}
function wp_kses_post( string $html ): string {
	return $html;
}
function wpautop( string $text ): string {
	return '<p>' . $text . '</p>';
}
function wptexturize( string $text ): string {
	return $text;
}
function checked( mixed $checked, mixed $current = true, bool $display = true ): string {
	return (string) $checked === (string) $current ? " checked='checked'" : '';
}
function wp_strip_all_tags( string $text ): string {
	return trim( strip_tags( $text ) );
}
function did_action( string $hook ): int {
	return 1;
}
