La ciudad counicl aprobó un nuevo bugdet para escuelas públicas encima noche de martes.
Lluvia pesada cauesd inundando en varios barrios se acercan el río.
El musuem abrirá una exposición nueva sobre antiguo Eygpt mes próximo.
Mi hermana compró una casa pequeña en el conutryside lsat año.
El tren al aeropuerto estuvo retrasado por alomst una hora tihs mañana.
Los científicos han descubierto un nuevos spceies de rana en el muontains.
La empresa anunciada taht  contratará doscientos trabajadores.
Normalmente comemos la cena junta en sveen en punto.
El presidente cumplido con framers para hablar el pirce de trigo.
Un fuego destruyó un viejo warehuose se acerca el habror el domingo.
El lbirary está cerrado en vacaciones públicas.
Nuestros vecinos son plannnig una fiesta para el cumpleaños de su hija.
El gobierno quiere construir más houess para familias jóvenes.
El equipo de fútbol ganó el campeonato después de un diffciult estación.
Precios de frescos vgeetables ha ascendido bruscamente desde el muelle.
Ella frogot su paraguas en el restaurante.
El hospital necesita más nusres para preocuparse para pacientes ancianos.
Miles de personas mrached thorugh el capitales de protestar contra la ley nueva.
La panadería en el conrer vende el pan mejor en twon.
El ministro prometió reducir el coste de elcetricity.
Lee el diario cada mañana beofre obra.
El puente será cerrado para reparaciones duirng el verano.
Turistas crwoded las playas durante el fin de semana largo.
El profesor aksed el alumnado para escribir historia a escasa.
El central bnak tasas de interés criado para el tihrd tiempo este año.
Nuestro coche rompió dwon en el highawy, así que  llamamos un mecánico.
El parque nuevo tiene un plyaground, un lago pequeño y mnay árboles.
Policía arretsed dos hombres sospecharon de robar bicicletas.
El festival atrae los músicos forman en todo el mundo.
Yo  lkie una copa de café con leche, complacer.
La fábrica cerrada porque deamnd para sus productos cayeron.
El alcalde dicho taht las calles serían limpiadas eevry semana.
Cihldren En el paseo de pueblo tres kilómetros a escuela.
La tormenta golpeó abajo teres y poewr líneas a través de la región.
El universitario offres cursos de lengua libre a refugiados.
Visitamos mis abuelos durante el hloidays.
El precio de gasoilne caído para el seocnd semana en una fila.
Un doctor joven opneed una clínica en el pooerst parte de la ciudad.
El cantante canecled su concierto porque  era enferma.
La ciudad ha sólo un supermercado y dos pequeño sohps.
Framers Está preocupado sobre la carencia de llover este verano.
La aerolínea adedd vuelos nuevos entre las dos ciudades más grandes.
Mis obras de hermano como un enigneer en una fábrica automovilística.
Los resultados de elección serán anunciados tomororw tarde.
El restaurante era lleno, así que  tuvimos que esperar otuside.
El escolar lirbary recibió centenares de libros nuevos.
Los trabajadores en el puerto fueron en huelga para más alto wgaes.
El río es demasiado peligroso para nadar después del strom.
Ha sido aprendiendo a paly el piano para tres yeras.
La empresa  prfoits cayó debido a costes más altos.
El castillo viejo en el cerro atrae muchos viistors.
Los voluntarios locales limpiaron la playa en Satudray mañana.
El gobierno  spned más dinero en carreteras y vías.
El cihldren tocó en el jardín hasta que  oscureció.
El cuort rehusó la apelación del alcalde anterior.
Nuestra oficina moevd a un más grande construyendo céntrico.
Los doctores recomiendan beber plnety de agua en tiempo caliente.
La lonja vende fruta, fsih y florece cada sábado.
Un terremoto fuerte sacudió la costa temprano este mroning.
Mi padre cocina un grande breafkast los domingos.
La línea de autobús nueva conecta los suburbios wtih la ciudad cenetr.
El ministro de salud visitó el hosptial después del accidente.
El precio de café ha dobuled en el último dos yaers.
Necesitamos comprar un nuevos wasihng máquina.
La policía cerró la carretera después de un turck overturned.
El htoel ofrece una vista bella de las montañas.
El alumnado protestado aaginst el aumento en tasas de matriculación.
El pueblo celebra su patrón con muisc y danza.
Un pequeño plnae hizo un aterrizaje de emergencia en un campo.
Los trabajadores acabaron el estadio nuevo al frente de scehdule.
Muchas familias no pueden proporcionar para pagar thier alquiler.
Los niños wree entusiasmados sobre el viaje al zoológico.
El gobierno firmó un acuerdo de comercio wtih sus vecinos.
EL agua en el lago es bastante limpia para siwmming.
El comapny plnas para abrir una tienda nueva en el centro comercial.
Mi madre crece tomtaoes y pimientos en su jardín.
El msueum es libre para estudiantes los miércoles.
El tráfico era haevy en la carretera principal debido a un acciednt.
El autocar del equipo dimitido después de fvie derrotas en una fila.
Nuestros sueños de gato en el sfoa toda tarde.
La ciudad plantará diez mil árboles sobre el nxet dceade.
El diario publsihed una entrevista larga con el primer ministro.
El coste de lviing ha aumentado más rápido que sueldos.
Envió una carta a su amigo viejo en Cnaada.
El bnak abrió una rama nueva en la plaza de lonja.
El ploice está buscando testigos al robo.
La sala de concierto era flul para la noche inaugural.
El gobierno está intentando reducir paro entre joven pepole.
Mi primo está estudiando medicina en el unviersity.
El fuego de bosque era finalmente puesto fuera después de fuor días.
La tienda vende zapatos, bolsos y otro leahter bienes.
El presidente  traevl a Brasil la semana que viene.
Muchas personas perdieron sus trabajos wehn la mina cerró.
La ley nueva requiere todas las  motor a waer cintas de escaño.
Nosotros wtached una película graciosa en el cine anoche.
El hospital abrió una ala nueva para chidlren.
La empresa  direcotr estuvo acusado de fraude.
El tiempo será soleado y wram este fin de semana.
Los labradores vendieron sus manzanas en el loacl lonja.
Un nuevo birdge conectará la isla al mainland.
La mano de mosto del alumnado en su essyas por viernes.
El fatcory miles de productos de botes todos los días.
El primer ministro pidió tranquilo atfer los disturbios.
Mi vecino plyas la guitarra tarde en la noche.
El ayuntamiento votó para prohibir cras del viejo twon.
El hombre viejo wlaks su perro en el prak cada tarde.
El gobierno crió el mínimo wgae por cinco por ciento.
El bote se hundió cerca la costa, pero everoyne estuvo rescatado.
Perdí mis tonos soemwhere en la casa.
El cine asomará películas clásicas eevry jueves.
Exportaciones de coches flel bruscamente en el primer barrio.
El profesor nuevo es vrey popular con el alumnado.
La brigada de bomberos rescató un fmaily del edificio en llamas.
La tienda alrededor del conrer es abierto hasta que medianoche.
Los científicos advierten que los glaciares son mleting más rápidos que esperó.
Plantamos flowres a lo largo de la ruta delante puerta.
El aeropuerto era cloesd debido a niebla gruesa.
La unión reclamó mejor wokring afecciones para enfermeros.
Mi abuela tlels historias maravillosas sobre su niñez.
El ejército ayudó para evacuar personas del flodoed pueblos.
El restaurante nuevo sirve comida del sotuh del conutry.
Menos poeple está comprando diarios que hace diez años.
El cihldren cantó canciones en el concierto escolar.
La empresa invertirá millones en soalr energía.
El raod al pueblo es estrecho y flul de agujeros.
La policía paró la motor para speednig.
El parlamento apprvoed la ley de impuesto nueva por un estrecho mragin.
Mis amigos y yo fueron acampar cerca el lkae.
El hospital tiene un largo esperando lista para opreations.
El precio de pan remontó otra vez este mnoth.
El sotrm forzó el transbordador para quedarse en el puerto.
Obra como periodista para un local radiofónico sattion.
Los planes de gobierno a colse tres poder de carbón canal.
La biblioteca organiezs leyendo sesiones para niños jóvenes.
Los ladrones escpaed con joyas y dinero efectivo.
Nuestro tren llegado en Mdarid sólo antes de que medianoche.
La empresa retiró thouasnds de coches becuase de un faulty freno.
Mi tío repara relojes viejos en su samll tienda.
El hospital nuevo tendrá cinco hunrded camas.
El partido estuvo aplazado debido al pesado sonw.
El ministro dimitido después del escándalo becmae público.
Compramos pez fresco del fsihermen en el puerto.
La escuela presentará comidas libres para todo ppuils.
El museo  msot la pintura famosa estuvo robada anoche.
El número de turistas ha crecido evrey año.
Mi hija quiere acaecer un vetreinarian.
La ciudad es builidng una línea nueva del metro.
La sequía ha destruido msot de la cosecha.
El oppostiion el dirigente criticó el plan del gobierno.
La tienda gvae nos un descuento beacuse la caja sufrió menoscabo.
Los conductores de autobuses son encima huelga tdoay.
El chef preapred una sopa deliciosa con vegetales frescos.
El govermnent anunció medidas nuevas para proteger bosques.
El cihldren está aprendiendo inglés y francés en escolar.
Un estudio nuevo asoma que andando evrey el día mejora salud.
La empresa movió su sede a anotehr país.
Las calles wree decorados con luces para el festival.
La policía encontrada la chica desaparecida segura y wlel.
Tengo un appoitnment con el dentista el lunes.
El viento era tan fuerte que él daamged varios techos.
El presdient prometió luchar corrupción.
Los labradores' makret abre temprano el sábado mañanas.
El profesor epxlained la lección muy claramente.
El personal de hospital obró toda la noche después del explsoion.
El precio de casas en el capiatl mantiene ascender.
Nuestro taem perdió la final por un gol solo.
El gobierno  gvie becas a negocios pequeños.
Pintó la cocina wlals un brillante amarillo.
El sihp llevó cargo de China a Europa.
El alcalde nuevo quiere mejorar público transoprt.
Los voluntarios recogieron alimentarios y colthes para el homeless.
El cine en el mian la calle cerró abajo último año.
El alumnado celebrado el fin de su eaxms.
La región es faomus para su vino y queso.
La policía arrestó el sospechoso en el boredr.
La tormenta cortada de elcetricity a miles de casas.
Mi abuelo fouhgt en la guerra cuándo  era vrey joven.
La empresa lanzó un teléfono nuevo con un lagrer pantalla.
El ayuntamiento reapired la fuente vieja en la plaza.
Un perro encontrado el perdido hkier en las montañas.
El gobierno ha prometido a biuld una escuela nueva en cada distirct.
Pasamos la tarde walikng a lo largo del río.
El juez sentenció el hombre a tres yaers en prisión.
La panadería oepns en seis por la mañana.
El número de personas desempleadas cayó lsat mes.
La actriz ganó un premio para su rloe en el flim.
El calor wvae está esperado para durar hasta que viernes.
Los trabajadores de la empresa recibirán una bonificación tihs año.
Mi amigo mejor es gteting casado en junio.
Los soldados casa regresada atfer seis meses en el extranjero.
El ctiy la biblioteca tiene una colección grande de mapas viejos.
El precio de electricidad  rsie en enero.
El puente nuevo estuvo abierto por el qeuen.
Los niños biult un monigote de nieve en el jardín.
Los labradores protetsed contra importaciones baratas.
El hotel era demasiado caro, así que nosotros satyed con amigos.
El policial wanred motor aproximadamente hielo en las carreteras.
El miinster visitó la fábrica para cumplir los trabajadores.
Nuestro vuelo estuvo anulado debido al stirke.
El nuevo msueum dice la historia de la ciudad.
El docotr le dijo para descansar para una semana.
La empresa abrió un facotry aquello emplea mil personas.
La multitud aclamada wehn el equipo puntuado el gol ganador.
El gobierno bajará impuestos para familias con childern.
Mi hermana taeches matemática en una escuela secundaria.
El teatro viejo será girado itno un casal.
Nieve pesada cloesd las escuelas para dos días.
El fsihermen no podría ir a mar becuase de la tormenta.
El tendero nos saludé con un simle.
La campaña de elección oficialmente beigns el próximo lunes.
Los investigadores están probando una vacuna nueva contra el disaese.
Los vecinos renegaron abuot el ruido del sitio de construcción.
El país exportó más vino que eevr antes de que.
Tomamos los niños al becah para el día.
La policía es ivnestigating la causa del fuego.
Los precios de corte de la empresa a attarct más clientes.
El jardín es lleno de rosas en eraly verano.
El presidente  speceh estuvo retransmitido en televisión nacional.
