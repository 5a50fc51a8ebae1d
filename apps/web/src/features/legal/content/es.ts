import type { LegalTexts } from './types';

export const es: LegalTexts = [
  {
    id: 'user',
    title: 'Contrato de usuario',
    sections: [
      {
        heading: 'Artículo 1. Ámbito',
        paragraphs: [
          'Este contrato establece las condiciones en las que Kabuto (la «Empresa») presta esta aplicación y sus servicios. Al abrir una cuenta usted acepta este contrato. Se aplica desde el 20 de junio de 2025.',
        ],
      },
      {
        heading: 'Artículo 2. Su cuenta',
        paragraphs: [
          'Cada persona puede tener una sola cuenta, registrada con un número de móvil a su propio nombre. No puede prestar, vender ni compartir su cuenta.',
          'Mantenga en secreto su contraseña de acceso y su contraseña de operaciones. La Empresa nunca le pedirá sus contraseñas por teléfono, chat, correo electrónico ni redes sociales.',
        ],
      },
      {
        heading: 'Artículo 3. Datos de mercado en la demostración',
        paragraphs: [
          'En la versión de demostración de la aplicación, los precios, gráficos y demás datos de mercado son simulados. No son precios reales de ninguna bolsa y las órdenes de la demostración no se envían a ninguna bolsa.',
        ],
      },
      {
        heading: 'Artículo 4. Depósitos y retiradas',
        paragraphs: [
          'Los depósitos solo se aceptan a través de la página de depósito de esta aplicación, en las cuentas a nombre de la Empresa que allí se indican.',
          'Las retiradas solo se pagan a una cuenta bancaria a su propio nombre que usted haya registrado. La retirada mínima es de 10.000 yenes y no tiene comisión. Las solicitudes se aceptan en días hábiles de 9:00 a 11:30 y de 12:30 a 15:30 (hora de Japón) y se abonan en un plazo de 24 horas.',
          'La Empresa nunca pide ninguna comisión, impuesto, depósito, pago de «desbloqueo» ni ningún otro pago para liberar una retirada. Quien le pida un pago así no actúa en nombre de la Empresa.',
        ],
      },
      {
        heading: 'Artículo 5. Transferencias pedidas en chats',
        paragraphs: [
          'La Empresa nunca le pide transferir dinero a una cuenta facilitada en un chat, en redes sociales, en una aplicación de mensajería o por un particular. Si alguien lo hace, no transfiera nada y contacte con la Empresa a través de esta aplicación.',
        ],
      },
      {
        heading: 'Artículo 6. Riesgos',
        paragraphs: [
          'Invertir en valores conlleva riesgos, incluida la pérdida del capital. La rentabilidad pasada no garantiza resultados futuros. Las funciones asistidas por IA son herramientas de apoyo a sus propias decisiones y no prometen ningún beneficio.',
        ],
      },
      {
        heading: 'Artículo 7. Comisiones',
        paragraphs: [
          'Toda comisión de una operación se le muestra antes de que la confirme. No se cobra ninguna comisión que no se haya mostrado.',
        ],
      },
      {
        heading: 'Artículo 8. Conductas prohibidas',
        paragraphs: [
          'No puede usar la identidad de otra persona, utilizar los servicios para el blanqueo de capitales u otros fines ilícitos, manipular precios ni interferir en el funcionamiento de los servicios.',
        ],
      },
      {
        heading: 'Artículo 9. Modificaciones y ley aplicable',
        paragraphs: [
          'La Empresa anuncia en la aplicación las modificaciones de este contrato antes de su entrada en vigor. Este contrato se rige por las leyes de Japón y el Tribunal de Distrito de Tokio tiene jurisdicción exclusiva en primera instancia.',
        ],
      },
    ],
  },
  {
    id: 'security',
    title: 'Condiciones de seguridad',
    sections: [
      {
        heading: '1. Contraseñas',
        paragraphs: [
          'Utilice una contraseña que no use en otros servicios. Tras varios intentos fallidos de acceso, la cuenta se bloquea durante un tiempo para protegerle.',
          'Al cambiar su contraseña de acceso se cierran todas las demás sesiones abiertas.',
        ],
      },
      {
        heading: '2. Contactos sospechosos',
        paragraphs: [
          'Si alguien que dice ser de la Empresa le pide su contraseña, un código de verificación o una transferencia a una cuenta facilitada en un chat, se trata de un fraude. Comuníquelo a la Empresa a través de esta aplicación.',
        ],
      },
    ],
  },
  {
    id: 'privacy',
    title: 'Política de privacidad',
    sections: [
      {
        heading: '1. Información que recogemos',
        paragraphs: [
          'Su número de móvil, los documentos de identidad exigidos para la verificación por la Ley japonesa de Prevención de la Transferencia de Fondos de Origen Delictivo, los datos de su cuenta bancaria, su historial de operaciones y un identificador anónimo del dispositivo.',
        ],
      },
      {
        heading: '2. Para qué la usamos',
        paragraphs: [
          'Para prestar y proteger los servicios, verificar su identidad como exige la ley, tramitar depósitos y retiradas y responder a sus consultas. No vendemos datos personales.',
        ],
      },
      {
        heading: '3. Comunicación a terceros y sus derechos',
        paragraphs: [
          'Solo comunicamos datos personales a terceros con su consentimiento o cuando la ley lo exige. Puede solicitar el acceso, la rectificación o la supresión de sus datos a través de esta aplicación.',
        ],
      },
    ],
  },
];
