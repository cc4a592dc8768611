<?php
/**
 * Subscription paused (HTML). A theme overrides it by copying it to
 * yourtheme/recurring-payments-bridge/emails/rps-subscription-paused.php.
 *
 * @var array<string, mixed> $subscription the subscription as the service answered it
 * @var array<string, mixed> $event        the service's callback
 * @var list<string>         $others       other subscriptions on the new payment method
 * @var string               $customer_name
 * @var string               $email_heading
 * @var string               $additional_content
 * @var WC_Email             $email
 */

defined( 'ABSPATH' ) || exit;

$name = (string) ( $subscription['name'] ?? '' );
$until = RPS_Email_Subscription::date( $event['resume_at'] ?? ( $subscription['resume_at'] ?? null ) );
$lines = array(
	'' !== $until
		/* translators: 1: the subscription's name, 2: a date */
		? sprintf( __( 'Your subscription %1$s is paused until %2$s; no payment is taken until then.', 'recurring-payments-bridge' ), $name, $until )
		/* translators: %s: the subscription's name */
		: sprintf( __( 'Your subscription %s is paused until you resume it; no payment is taken until then.', 'recurring-payments-bridge' ), $name ),
);
/* translators: %s: the customer's first name */
$greeting = '' !== $customer_name ? sprintf( __( 'Hi %s,', 'recurring-payments-bridge' ), $customer_name ) : __( 'Hello,', 'recurring-payments-bridge' );

do_action( 'woocommerce_email_header', $email_heading, $email );
?>
<p><?php echo esc_html( $greeting ); ?></p>
<?php foreach ( $lines as $line ) : ?>
<p><?php echo esc_html( $line ); ?></p>
<?php endforeach; ?>
<?php
if ( $additional_content ) {
	echo wp_kses_post( wpautop( wptexturize( $additional_content ) ) );
}
do_action( 'woocommerce_email_footer', $email );
