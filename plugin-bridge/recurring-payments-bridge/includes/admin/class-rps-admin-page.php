<?php
defined( 'ABSPATH' ) || exit;

/**
 * WooCommerce → Recurring payments: the service's address and token, "Test connection", "Connect
 * this store", and the product and order syncs with their progress and last runs. Every action is an
 * admin-ajax call checked by nonce and the manage_woocommerce capability.
 */
final class RPS_Admin_Page {

	public const SLUG        = 'rps-recurring-payments';
	private const NONCE      = 'rps_admin';
	private const KEEP_RUNS  = 10;
	private const SYNC_KINDS = array( 'products', 'orders' );

	public static function register(): void {
		add_action( 'admin_menu', array( self::class, 'add_menu' ) );
		add_action( 'admin_notices', array( self::class, 'admin_notices' ) );
		add_action( 'admin_post_rps_save_settings', array( self::class, 'save_settings' ) );
		add_action( 'wp_ajax_rps_test_connection', array( self::class, 'ajax_test_connection' ) );
		add_action( 'wp_ajax_rps_connect_store', array( self::class, 'ajax_connect_store' ) );
		add_action( 'wp_ajax_rps_start_sync', array( self::class, 'ajax_start_sync' ) );
		add_action( 'wp_ajax_rps_sync_runs', array( self::class, 'ajax_sync_runs' ) );
	}

	public static function add_menu(): void {
		$hook = add_submenu_page( 'woocommerce', __( 'Recurring payments', 'recurring-payments-bridge' ), __( 'Recurring payments', 'recurring-payments-bridge' ), 'manage_woocommerce', self::SLUG, array( self::class, 'render' ) );
		add_action(
			'admin_enqueue_scripts',
			static function ( string $current ) use ( $hook ): void {
				if ( $current !== $hook ) {
					return;
				}
				wp_enqueue_script( 'rps-admin', plugins_url( 'assets/admin.js', RPS_PLUGIN_FILE ), array(), RPS_VERSION, true );
				wp_localize_script(
					'rps-admin',
					'rpsAdmin',
					array(
						'ajaxUrl' => admin_url( 'admin-ajax.php' ),
						'nonce'   => wp_create_nonce( self::NONCE ),
						'i18n'    => array(
							'running'   => __( 'Running…', 'recurring-payments-bridge' ),
							'succeeded' => __( 'Done', 'recurring-payments-bridge' ),
							'failed'    => __( 'Failed', 'recurring-payments-bridge' ),
							'pages'     => __( 'pages', 'recurring-payments-bridge' ),
							'error'     => __( 'The service could not be reached.', 'recurring-payments-bridge' ),
						),
					)
				);
			}
		);
	}

	public static function render(): void {
		if ( ! current_user_can( 'manage_woocommerce' ) ) {
			return;
		}
		$settings = RPS_Settings::all();
		$notice   = get_transient( 'rps_settings_notice' );
		delete_transient( 'rps_settings_notice' );
		?>
		<div class="wrap">
			<h1><?php esc_html_e( 'Recurring payments', 'recurring-payments-bridge' ); ?></h1>
			<?php if ( is_array( $notice ) ) : ?>
				<div class="notice notice-<?php echo esc_attr( (string) $notice['type'] ); ?>"><p><?php echo esc_html( (string) $notice['message'] ); ?></p></div>
			<?php endif; ?>
			<form method="post" action="<?php echo esc_url( admin_url( 'admin-post.php' ) ); ?>">
				<input type="hidden" name="action" value="rps_save_settings" />
				<?php wp_nonce_field( self::NONCE ); ?>
				<table class="form-table" role="presentation">
					<tr>
						<th scope="row"><label for="rps-service-url"><?php esc_html_e( 'Service address', 'recurring-payments-bridge' ); ?></label></th>
						<td><input type="url" class="regular-text" id="rps-service-url" name="rps[service_url]" value="<?php echo esc_attr( (string) $settings['service_url'] ); ?>" placeholder="https://payments.example.com" /></td>
					</tr>
					<tr>
						<th scope="row"><label for="rps-api-token"><?php esc_html_e( 'API token', 'recurring-payments-bridge' ); ?></label></th>
						<td>
							<input type="password" class="regular-text" id="rps-api-token" name="rps[api_token]" value="" autocomplete="off" placeholder="<?php echo esc_attr( RPS_Settings::masked_token( (string) $settings['api_token'] ) ); ?>" />
							<p class="description"><?php esc_html_e( 'Leave empty to keep the stored token.', 'recurring-payments-bridge' ); ?></p>
						</td>
					</tr>
				</table>
				<?php submit_button( __( 'Save', 'recurring-payments-bridge' ) ); ?>
			</form>

			<h2><?php esc_html_e( 'Connection', 'recurring-payments-bridge' ); ?></h2>
			<p>
				<button type="button" class="button" data-rps-action="rps_test_connection"><?php esc_html_e( 'Test connection', 'recurring-payments-bridge' ); ?></button>
				<button type="button" class="button button-primary" data-rps-action="rps_connect_store"><?php esc_html_e( 'Connect this store', 'recurring-payments-bridge' ); ?></button>
				<span id="rps-connection-result" role="status"><?php echo esc_html( RPS_Settings::is_configured() ? self::connection_state( RPS_Api_Client::from_settings()->quick() ) : '' ); ?></span>
			</p>

			<h2><?php esc_html_e( 'Sync', 'recurring-payments-bridge' ); ?></h2>
			<p>
				<button type="button" class="button" data-rps-sync="products"><?php esc_html_e( 'Sync products', 'recurring-payments-bridge' ); ?></button>
				<button type="button" class="button" data-rps-sync="orders"><?php esc_html_e( 'Sync orders', 'recurring-payments-bridge' ); ?></button>
				<span id="rps-sync-progress" role="status"></span>
			</p>
			<table class="widefat striped" id="rps-sync-runs">
				<thead><tr>
					<th><?php esc_html_e( 'Kind', 'recurring-payments-bridge' ); ?></th>
					<th><?php esc_html_e( 'Status', 'recurring-payments-bridge' ); ?></th>
					<th><?php esc_html_e( 'Started', 'recurring-payments-bridge' ); ?></th>
					<th><?php esc_html_e( 'Created / updated / failed', 'recurring-payments-bridge' ); ?></th>
					<th><?php esc_html_e( 'Errors', 'recurring-payments-bridge' ); ?></th>
				</tr></thead>
				<tbody></tbody>
			</table>
		</div>
		<?php
	}

	/**
	 * The store connection as the service has it (`GET /api/v2/shop`, asked when the page opens, 3 s at
	 * most): a store disconnected there (`cli shops disconnect`) is shown, and forgotten here, so
	 * checkout sends plain payments.
	 */
	public static function connection_state( RPS_Api_Client $api ): string {
		try {
			$shop = $api->get( '/api/v2/shop' );
		} catch ( RPS_Api_Error $error ) {
			if ( 404 !== $error->status ) {
				return __( 'The service could not be reached, so the store connection is not known just now.', 'recurring-payments-bridge' );
			}
			$shop = array( 'status' => 'none' );
		}
		if ( 'connected' === ( $shop['status'] ?? '' ) ) {
			return __( 'This store is connected.', 'recurring-payments-bridge' );
		}
		RPS_Settings::connection_lost();
		return __( 'This store is not connected to the service: checkout takes plain payments, without the check against the store\'s order and without the sync. Connect it with "Connect this store".', 'recurring-payments-bridge' );
	}

	/** On every admin screen, for shop managers: what keeps the gateway from working as set up. */
	public static function admin_notices(): void {
		if ( ! current_user_can( 'manage_woocommerce' ) ) {
			return;
		}
		echo self::notices_html(); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- notices_html() escapes.
	}

	public static function notices_html(): string {
		$html = '';
		$link = sprintf( ' <a href="%s">%s</a>', esc_url( admin_url( 'admin.php?page=' . self::SLUG ) ), esc_html__( 'Recurring payments', 'recurring-payments-bridge' ) );
		if ( 'yes' === RPS_Settings::get( 'connection_lost' ) ) {
			$html .= '<div class="notice notice-warning"><p>' . esc_html__( 'The recurring payments service says this store is no longer connected. Checkout still takes payments, without the check against the store\'s order; connect the store again under', 'recurring-payments-bridge' ) . $link . '.</p></div>';
		}
		if ( 'yes' === RPS_Settings::get( 'store_connected' ) && 'yes' !== RPS_Settings::get( 'connection_lost' ) && '' === (string) RPS_Settings::get( 'event_signing_secret' ) ) {
			// Connected by a version before subscription callbacks: the service has no address to tell the store at.
			$html .= '<div class="notice notice-warning"><p>' . esc_html__( 'This store was connected by an earlier version of the plugin: it does not hear of subscription changes made elsewhere (the customer portal, the API), and sends none of their e-mails. Connect the store again under', 'recurring-payments-bridge' ) . $link . '.</p></div>';
		}
		if ( false !== get_transient( RPS_Api_Client::UNREACHABLE_TRANSIENT ) ) {
			$html .= '<div class="notice notice-error"><p>' . esc_html__( 'The recurring payments service did not answer in time. Its payment method is hidden at checkout until it answers again (asked again after a minute); the other payment methods are not affected.', 'recurring-payments-bridge' ) . $link . '</p></div>';
		}
		if ( class_exists( 'RPS_Wcs', false ) ) {
			$html .= RPS_Wcs::unsent_notice_html();
		}
		return $html;
	}

	/** admin-post: the settings form. */
	public static function save_settings(): void {
		self::guard();
		// phpcs:ignore WordPress.Security.ValidatedSanitizedInput.InputNotSanitized -- RPS_Settings::sanitize cleans each field.
		$input              = isset( $_POST['rps'] ) && is_array( $_POST['rps'] ) ? $_POST['rps'] : array();
		[ $clean, $errors ] = RPS_Settings::sanitize( $input, RPS_Settings::all() );
		update_option( RPS_Settings::OPTION, $clean, false );
		delete_transient( RPS_Settings::METHODS_TRANSIENT );
		delete_transient( RPS_Settings::FIRST_METHODS_TRANSIENT );
		set_transient(
			'rps_settings_notice',
			array() === $errors
				? array( 'type' => 'success', 'message' => __( 'Settings saved.', 'recurring-payments-bridge' ) )
				: array( 'type' => 'error', 'message' => implode( ' ', $errors ) ),
			60
		);
		wp_safe_redirect( admin_url( 'admin.php?page=' . self::SLUG ) );
		exit;
	}

	public static function ajax_test_connection(): void {
		self::guard();
		try {
			RPS_Api_Client::from_settings()->get( '/api/v2/customers?per_page=1' );
			wp_send_json_success( array( 'message' => __( 'The service answered: address and token are right.', 'recurring-payments-bridge' ) ) );
		} catch ( RPS_Api_Error $error ) {
			self::fail( $error, __( 'The service could not be used', 'recurring-payments-bridge' ) );
		}
	}

	public static function ajax_connect_store(): void {
		self::guard();
		try {
			$shop = ( new RPS_Store_Connector( RPS_Api_Client::from_settings() ) )->connect();
			$hint = 'registered' === ( $shop['webhooks']['state'] ?? '' )
				? __( 'Store connected; the service hears of every change at once.', 'recurring-payments-bridge' )
				: __( 'Store connected; the service cannot receive this store\'s webhooks and syncs every 15 minutes instead.', 'recurring-payments-bridge' );
			wp_send_json_success( array( 'message' => $hint ) );
		} catch ( RPS_Api_Error $error ) {
			self::fail( $error, __( 'The store could not be connected', 'recurring-payments-bridge' ) );
		}
	}

	public static function ajax_start_sync(): void {
		self::guard();
		// phpcs:ignore WordPress.Security.NonceVerification.Missing -- guard() checked the nonce.
		$kind = isset( $_POST['kind'] ) ? sanitize_key( wp_unslash( $_POST['kind'] ) ) : '';
		if ( ! in_array( $kind, self::SYNC_KINDS, true ) ) {
			wp_send_json_error( array( 'message' => __( 'Unknown sync.', 'recurring-payments-bridge' ) ), 400 );
		}
		try {
			$run = RPS_Api_Client::from_settings()->post( '/api/v2/sync/' . $kind, array() );
		} catch ( RPS_Api_Error $error ) {
			self::fail( $error, __( 'The sync could not be started', 'recurring-payments-bridge' ) );
		}
		wp_send_json_success( array( 'run' => $run ) );
	}

	/** The last runs, as the service has them; the page polls this while a run is going. */
	public static function ajax_sync_runs(): void {
		self::guard();
		$api = RPS_Api_Client::from_settings();
		try {
			// The service lists oldest first: the newest runs are on the last page.
			$runs = $api->get( '/api/v2/sync/runs?per_page=' . self::KEEP_RUNS );
			$last = (int) ( $runs['meta']['last_page'] ?? 1 );
			if ( $last > 1 ) {
				$runs = $api->get( '/api/v2/sync/runs?per_page=' . self::KEEP_RUNS . '&page=' . $last );
			}
		} catch ( RPS_Api_Error $error ) {
			self::fail( $error, __( 'The sync runs could not be read', 'recurring-payments-bridge' ) );
		}
		$data = array_reverse( is_array( $runs['data'] ?? null ) ? $runs['data'] : array() );
		wp_send_json_success( array( 'runs' => $data ) );
	}

	private static function guard(): void {
		if ( ! current_user_can( 'manage_woocommerce' ) ) {
			wp_die( esc_html__( 'You are not allowed to do this.', 'recurring-payments-bridge' ), 403 );
		}
		check_admin_referer( self::NONCE );
	}

	private static function fail( RPS_Api_Error $error, string $what ): never {
		RPS_Callback::log( 'error', $what . ': ' . $error->detail() );
		$fields = array();
		foreach ( $error->fields as $messages ) {
			$fields[] = implode( ' ', (array) $messages );
		}
		wp_send_json_error( array( 'message' => trim( $what . ': ' . $error->getMessage() . ' ' . implode( ' ', $fields ) ) ), 200 );
		exit;
	}
}
